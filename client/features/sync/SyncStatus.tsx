import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_TEMPLATES, type IntegrationView, isPushApp } from '../../../src/schemas/sync.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { ConfirmDialog } from '../account/ConfirmDialog.tsx';
import { RelativeTime } from './RelativeTime.tsx';
import { storedErrorMessage } from './sync-errors.ts';
import { useIntegrationUpdate, useRunOnce, useSetEnabled } from './use-integration.ts';
import '../../styles/switch.css';

/** On or off: a checkbox that looks and reads as a switch. */
function EnabledSwitch({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation();
  const id = useId();
  const setEnabled = useSetEnabled(integration.app);
  const on = setEnabled.isPending
    ? (setEnabled.variables?.enabled ?? integration.enabled)
    : integration.enabled;
  return (
    <div className="switch-row">
      <div className="switch-text">
        <label htmlFor={id}>{t('sync.enabledLabel', { app: t(`sync.app.${integration.app}`) })}</label>
        <p className="field-hint" id={`${id}-hint`}>
          {on ? t('sync.enabledOn') : t('sync.enabledOff')}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={on}
        className="switch"
        data-testid="sync-enabled"
        aria-describedby={`${id}-hint`}
        checked={on}
        disabled={setEnabled.isPending}
        onChange={(event) => setEnabled.mutate({ app: integration.app, enabled: event.target.checked })}
      />
    </div>
  );
}

/** Retries a push app's failed run now. */
function RetryButton({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const update = useIntegrationUpdate(integration.app);
  const retry = useMutation(
    trpc.sync.retryPush.mutationOptions({
      onSuccess: () => {
        notify.info('sync.retryQueued');
        void update.refetch();
      },
      onError: (error) => notify.error(error),
    }),
  );
  if (!isPushApp(integration.app)) return null;
  const app = integration.app;
  return (
    <button
      type="button"
      className="button button-small"
      data-testid="sync-retry"
      disabled={retry.isPending}
      onClick={() => retry.mutate({ app })}
    >
      {t('common.retry')}
    </button>
  );
}

/** An unbound push tool's last run, when it failed (refused credentials unbind it): why, above the form to connect again. */
export function LastRunError({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation();
  if (integration.lastResult !== 'error') return null;
  return (
    <div className="last-run-error" role="status" data-testid="last-run" data-result="error">
      <span className="status status-error">
        {storedErrorMessage(integration.lastError ?? 'errors.generic', t)}
      </span>
    </div>
  );
}

/** When the last run was and how it went: how many were sent, or the translated error. */
function LastRun({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation();
  const { lastRunAt, lastResult, lastError, lastCount } = integration;
  if (!lastRunAt) return <p className="muted">{t('sync.neverRun')}</p>;
  const failed = lastResult === 'error';
  const countKey = APP_TEMPLATES[integration.app].includes('note') ? 'sync.notesSent' : 'sync.highlightsSent';
  return (
    <div className="last-run" data-testid="last-run" data-result={lastResult ?? ''}>
      <p>
        <span className="muted">{t('sync.lastRun')}</span> <RelativeTime date={lastRunAt} />
      </p>
      {failed ? (
        <div className="last-run-error" role="status">
          <span className="status status-error">{storedErrorMessage(lastError ?? 'errors.generic', t)}</span>
          <RetryButton integration={integration} />
        </div>
      ) : (
        <span className="status status-on">{t(countKey, { count: lastCount })}</span>
      )}
    </div>
  );
}

/** A bound integration's switch, its last run, and "Run once" (everything again next time). */
export function SyncStatus({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation();
  const runOnce = useRunOnce(integration.app);
  const app = t(`sync.app.${integration.app}`);
  return (
    <section className="settings-section" aria-labelledby="sync-status-title" data-testid="sync-status">
      <h2 id="sync-status-title" className="section-title">
        {t('sync.statusTitle')}
      </h2>
      <EnabledSwitch integration={integration} />
      <LastRun integration={integration} />
      <div className="setting-row">
        <p className="form-note">{t('sync.runOnceHint')}</p>
        <ConfirmDialog
          title={t('sync.runOnceTitle')}
          description={t('sync.runOnceBody', { app })}
          confirmLabel={t('sync.runOnce')}
          onConfirm={() => runOnce.mutate({ app: integration.app })}
        >
          <button type="button" className="button" data-testid="run-once" disabled={runOnce.isPending}>
            {t('sync.runOnce')}
          </button>
        </ConfirmDialog>
      </div>
    </section>
  );
}
