import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  WEBHOOK_EVENTS,
  type WebhookEndpointView,
  type WebhookEvent,
  zCreateWebhookInput,
} from '../../../src/schemas/webhooks.ts';
import { CheckboxGroup } from '../../components/CheckboxGroup.tsx';
import { TextField, useForm } from '../../components/form.tsx';
import { errorData, errorMessage } from '../../lib/errors.ts';
import { useTRPC } from '../../trpc.ts';
import { EVENT_LABEL_KEYS } from './events.ts';

/** The server's refusals of an address, shown under the URL field. */
const URL_MESSAGES = [
  'errors.webhookUrlInvalid',
  'errors.webhookUrlNotHttps',
  'errors.webhookUrlPrivate',
  'errors.cannotBeEmpty',
  'errors.tooLong',
] as const;

/**
 * A new endpoint (its secret then goes to `onCreated`), or the address and events of one that
 * exists (`endpoint`). Refusals go under the field they are about.
 */
export function WebhookForm({
  endpoint,
  onCreated,
  onDone,
}: {
  endpoint?: WebhookEndpointView;
  onCreated?(secret: string): void;
  onDone?(): void;
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm(
    { url: endpoint?.url ?? '' },
    Object.fromEntries(URL_MESSAGES.map((key) => [key, 'url' as const])),
    ['events'],
  );
  const [events, setEvents] = useState<WebhookEvent[]>(endpoint?.events ?? [...WEBHOOK_EVENTS]);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  const onError = (error: unknown) => {
    if (errorData(error)?.messageKey === 'errors.webhookLimit') setProblem(errorMessage(error, t));
    else form.fail(error);
  };
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      // The form gives way to the secret, so it is not reset: the next one starts afresh.
      onSuccess: ({ secret }) => {
        void refresh();
        onCreated?.(secret);
      },
      onError,
    }),
  );
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: () => {
        void refresh();
        onDone?.();
      },
      onError,
    }),
  );
  const pending = create.isPending || update.isPending;
  return (
    <form
      className="form webhook-form"
      noValidate
      data-testid={endpoint ? 'webhook-edit-form' : 'webhook-create-form'}
      onSubmit={(event) => {
        event.preventDefault();
        setProblem(null);
        const input = form.check(zCreateWebhookInput, { url: form.values.url, events });
        if (!input) return;
        if (endpoint) update.mutate({ id: endpoint.id, ...input });
        else create.mutate(input);
      }}
      onKeyDown={(event) => {
        if (endpoint && event.key === 'Escape') {
          event.stopPropagation();
          onDone?.();
        }
      }}
    >
      <TextField
        form={form}
        name="url"
        type="url"
        inputMode="url"
        dir="ltr"
        label={t('webhooks.url')}
        placeholder={t('webhooks.urlPlaceholder')}
        hint={t('webhooks.urlHint')}
        autoComplete="off"
        spellCheck={false}
      />
      {/* Each event labelled in words, with its name beside it. */}
      <CheckboxGroup
        legend={t('webhooks.eventsLabel')}
        form={form}
        name="events"
        options={WEBHOOK_EVENTS}
        value={events}
        onChange={setEvents}
        choice={(event, inputId) => (
          <label htmlFor={inputId} className="choice-text">
            <span>{t(EVENT_LABEL_KEYS[event])}</span>
            <code className="webhook-event-name" dir="ltr">
              {event}
            </code>
          </label>
        )}
        className="webhook-event-choices"
        listClassName="webhook-event-grid"
        testId="webhook-events"
      />
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <div className="webhook-form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {endpoint ? t('common.save') : t('webhooks.add')}
        </button>
        {endpoint && (
          <button type="button" className="button" onClick={onDone}>
            {t('common.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
