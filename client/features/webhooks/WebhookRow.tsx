import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isolate } from '../../../src/rules/bidi.ts';
import type { WebhookDisabledReason, WebhookEndpointView } from '../../../src/schemas/webhooks.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { ConfirmDialog } from '../account/ConfirmDialog.tsx';
import { RelativeTime } from '../sync/RelativeTime.tsx';
import { DeliveryLog } from './DeliveryLog.tsx';
import { NewSecret } from './NewSecret.tsx';
import { WebhookForm } from './WebhookForm.tsx';
import '../../styles/switch.css';

function useWebhookMutations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
  };
  const onError = (error: unknown) => notify.error(error);
  return {
    update: useMutation(
      trpc.webhooks.update.mutationOptions({
        // The answer is the endpoint as saved: the list shows it at once, before it is read again.
        onSuccess: (saved) => {
          queryClient.setQueryData(trpc.webhooks.list.queryKey(), (list) =>
            list?.map((endpoint) => (endpoint.id === saved.id ? saved : endpoint)),
          );
          refresh();
        },
        onError,
      }),
    ),
    sendTest: useMutation(
      trpc.webhooks.sendTest.mutationOptions({
        onSuccess: () => {
          refresh();
          notify.success('webhooks.testSent');
        },
        onError,
      }),
    ),
    rollSecret: useMutation(trpc.webhooks.rollSecret.mutationOptions({ onSuccess: refresh, onError })),
    remove: useMutation(
      trpc.webhooks.remove.mutationOptions({
        onSuccess: () => {
          refresh();
          notify.success('webhooks.deleted');
        },
        onError,
      }),
    ),
  };
}

/** Active, off, or turned off by Margin; failing deliveries say since when and when the next try is. */
function EndpointStatus({ endpoint }: { endpoint: WebhookEndpointView }) {
  const { t } = useTranslation();
  if (!endpoint.enabled) {
    return (
      <span className={endpoint.disabledReason ? 'status status-error' : 'status'}>
        {endpoint.disabledReason ? t('webhooks.statusDisabled') : t('webhooks.statusOff')}
      </span>
    );
  }
  if (!endpoint.failingSince) return <span className="status status-on">{t('webhooks.statusActive')}</span>;
  return (
    <>
      <span className="status status-error" data-testid="webhook-failing">
        {t('webhooks.statusFailing')}
      </span>
      <span>
        {t('webhooks.firstFailure')} <RelativeTime date={endpoint.failingSince} />
      </span>
      {endpoint.retryAt && (
        <span>
          {t('webhooks.nextTry')} <RelativeTime date={endpoint.retryAt} />
        </span>
      )}
    </>
  );
}

/** On or off: a checkbox that looks and reads as a switch. */
function EnabledSwitch({
  endpoint,
  update,
}: {
  endpoint: WebhookEndpointView;
  /** The row's own change, so the switch and "Turn on again" wait for each other. */
  update: ReturnType<typeof useWebhookMutations>['update'];
}) {
  const { t } = useTranslation();
  const id = useId();
  // What the user just chose, shown until the saved endpoint replaces it.
  const [choice, setChoice] = useState<boolean | null>(null);
  const on = choice ?? endpoint.enabled;
  return (
    <label className="webhook-switch" htmlFor={id}>
      <span>{t('webhooks.enabledLabel')}</span>
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={on}
        className="switch"
        data-testid="webhook-enabled"
        checked={on}
        disabled={update.isPending}
        onChange={(event) => {
          setChoice(event.target.checked);
          update.mutate(
            { id: endpoint.id, enabled: event.target.checked },
            { onSettled: () => setChoice(null) },
          );
        }}
      />
    </label>
  );
}

/** Why Margin turned an endpoint off, as the notice under it says. */
const DISABLED_NOTICE_KEY: Record<WebhookDisabledReason, string> = {
  failing: 'webhooks.disabledNotice',
  membership: 'webhooks.membershipNotice',
};

/**
 * One endpoint: its address, events and status, the notice when Margin turned it off, and its
 * actions (test, log, edit, new secret, delete).
 */
export function WebhookRow({ endpoint }: { endpoint: WebhookEndpointView }) {
  const { t, i18n } = useTranslation();
  const logId = useId();
  const { update, sendTest, rollSecret, remove } = useWebhookMutations();
  const [editing, setEditing] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <li className="webhook" data-testid="webhook" data-webhook-id={endpoint.id}>
      <div className="webhook-head">
        <div className="webhook-main">
          <code className="webhook-url" dir="ltr" data-testid="webhook-url">
            {endpoint.url}
          </code>
          <p className="token-facts">
            <EndpointStatus endpoint={endpoint} />
            <span>
              {t('webhooks.secretHint')}{' '}
              <bdi className="mono webhook-secret-hint">{endpoint.secretHint}…</bdi>
            </span>
            <span>
              {t('webhooks.created', { date: isolate(formatDateTime(endpoint.createdAt, i18n.language)) })}
            </span>
          </p>
          <ul className="webhook-events" aria-label={t('webhooks.eventsLabel')}>
            {endpoint.events.map((event) => (
              <li key={event}>
                <code dir="ltr">{event}</code>
              </li>
            ))}
          </ul>
        </div>
        <EnabledSwitch endpoint={endpoint} update={update} />
      </div>

      {endpoint.disabledReason && endpoint.disabledAt && (
        <div
          className="notice notice-warning webhook-notice"
          role="status"
          data-testid="webhook-disabled-notice"
        >
          <p>
            {t(DISABLED_NOTICE_KEY[endpoint.disabledReason], {
              date: isolate(formatDateTime(endpoint.disabledAt, i18n.language)),
            })}
          </p>
          <button
            type="button"
            className="button button-small"
            disabled={update.isPending}
            onClick={() => update.mutate({ id: endpoint.id, enabled: true })}
          >
            {t('webhooks.enableAgain')}
          </button>
        </div>
      )}

      {secret && <NewSecret secret={secret} onDone={() => setSecret(null)} />}

      {editing ? (
        <WebhookForm endpoint={endpoint} onDone={() => setEditing(false)} />
      ) : (
        <div className="webhook-actions">
          <button
            type="button"
            className="button button-small"
            data-testid="webhook-send-test"
            disabled={!endpoint.enabled || sendTest.isPending}
            onClick={() => sendTest.mutate({ id: endpoint.id })}
          >
            {t('webhooks.sendTest')}
          </button>
          <button
            type="button"
            className="button button-small"
            aria-expanded={logOpen}
            aria-controls={logOpen ? logId : undefined}
            data-testid="webhook-log-toggle"
            onClick={() => setLogOpen((open) => !open)}
          >
            {t('webhooks.logTitle')}
          </button>
          <button type="button" className="button button-small" onClick={() => setEditing(true)}>
            {t('common.edit')}
          </button>
          <ConfirmDialog
            title={t('webhooks.rollTitle')}
            description={t('webhooks.rollBody')}
            confirmLabel={t('webhooks.rollSecret')}
            onConfirm={() =>
              rollSecret.mutate({ id: endpoint.id }, { onSuccess: (result) => setSecret(result.secret) })
            }
          >
            <button type="button" className="button button-small" disabled={rollSecret.isPending}>
              {t('webhooks.rollSecret')}
            </button>
          </ConfirmDialog>
          <ConfirmDialog
            title={t('webhooks.deleteTitle')}
            description={t('webhooks.deleteBody', { url: endpoint.url })}
            confirmLabel={t('common.delete')}
            danger
            onConfirm={() => remove.mutate({ id: endpoint.id })}
          >
            <button
              type="button"
              className="button button-small button-danger"
              data-testid="webhook-delete"
              disabled={remove.isPending}
            >
              {t('common.delete')}
            </button>
          </ConfirmDialog>
        </div>
      )}

      {logOpen && <DeliveryLog endpointId={endpoint.id} id={logId} />}
    </li>
  );
}
