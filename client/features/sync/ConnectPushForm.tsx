import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConnectPushInput, PushApp } from '../../../src/schemas/sync.ts';
import { TextField, useForm } from '../../components/form.tsx';
import { upgradePathOf } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import type { PushForm } from './apps.ts';
import { syncErrorMessage } from './sync-errors.ts';
import { useIntegrationUpdate } from './use-integration.ts';

/** The fields the user filled in; empty ones are left out so the server's defaults apply. */
function filled(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
}

/**
 * Binds a tool the server pushes into with what it needs (a webhook address, an API key, a
 * kernel address). Field errors show under their fields, the server's refusals above the button.
 */
export function ConnectPushForm({ app, form: push }: { app: PushApp; form: PushForm }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const update = useIntegrationUpdate(app);
  const names = push.fields.map((f) => f.name);
  const form = useForm(Object.fromEntries(names.map((n) => [n, ''])) as Record<string, string>);
  const [problem, setProblem] = useState<string | null>(null);
  const connect = useMutation(
    trpc.sync.connectPush.mutationOptions({
      onSuccess: (view) => {
        setProblem(null);
        form.reset();
        update.set(view);
        notify.info('sync.connectedToast', { app: t(`sync.app.${app}`) });
      },
      // The form was checked with the server's schema before sending: what comes back is about
      // the connection itself (unreachable, refused), so it shows above the button.
      // A PRO refusal goes to the toast that offers Upgrade.
      onError: (error) =>
        upgradePathOf(error) ? notify.error(error) : setProblem(syncErrorMessage(error, t)),
    }),
  );
  return (
    <form
      className="form form-narrow"
      noValidate
      data-testid="connect-push-form"
      onSubmit={(event) => {
        event.preventDefault();
        setProblem(null);
        const credentials = form.check(push.schema, filled(form.values));
        // The schema is the app's own (apps.ts), so these credentials belong with this app.
        if (credentials) connect.mutate({ app, credentials } as ConnectPushInput);
      }}
    >
      {push.fields.map((field) => (
        <TextField
          key={field.name}
          form={form}
          name={field.name}
          label={t(`sync.field.${field.name}`)}
          hint={t(`sync.field.${field.name}Hint`)}
          type={field.type}
          placeholder={field.placeholder}
          autoComplete={field.type === 'password' ? 'off' : undefined}
          spellCheck={false}
          dir="ltr"
        />
      ))}
      {problem && (
        <p className="field-error" role="alert" data-testid="connect-error">
          {problem}
        </p>
      )}
      <div>
        <button type="submit" className="button button-primary" disabled={connect.isPending}>
          {connect.isPending ? t('sync.connecting') : t('sync.connect')}
        </button>
      </div>
    </form>
  );
}
