import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PULL_SERVICE_IDS, type PullApp, zCreateSyncTokenInput } from '../../../src/schemas/sync.ts';
import { useTRPC } from '../../trpc.ts';
import { TextField, useForm } from '../auth/form.tsx';
import { CopyButton } from './CopyButton.tsx';
import { syncErrorMessage } from './sync-errors.ts';

const PULL_APPS = Object.keys(PULL_SERVICE_IDS) as PullApp[];

/** The new token, shown once, with a copy button and the warning that it will not be shown again. */
function NewToken({ token, onDone }: { token: string; onDone(): void }) {
  const { t } = useTranslation();
  // The form's button that made it is gone: focus moves to what to do next, copying the token.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.querySelector<HTMLButtonElement>('[data-testid="copy-token"]')?.focus(), []);
  return (
    <div ref={box} className="new-token" role="status" data-testid="new-token">
      <p className="new-token-title">
        <strong>{t('sync.newTokenTitle')}</strong>
      </p>
      <p className="new-token-warning">{t('sync.newTokenWarning')}</p>
      <div className="new-token-value">
        <code className="mono" dir="ltr" data-testid="new-token-value">
          {token}
        </code>
        <CopyButton text={token} testId="copy-token" />
      </div>
      <div>
        <button type="button" className="button button-small" onClick={onDone}>
          {t('common.done')}
        </button>
      </div>
    </div>
  );
}

/** Name and app of a new sync token; the plain token is shown once after it is made. */
export function CreateTokenForm() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const appId = useId();
  const form = useForm({ name: '' }, { 'errors.nameTooLong': 'name' });
  const [app, setApp] = useState<PullApp>('obsidian');
  const [created, setCreated] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation(
    trpc.sync.createToken.mutationOptions({
      onSuccess: ({ token }) => {
        setCreated(token);
        form.reset();
        void queryClient.invalidateQueries({ queryKey: trpc.sync.tokens.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.sync.integration.pathKey() });
      },
      onError: (error) => setProblem(syncErrorMessage(error, t)),
    }),
  );
  if (created) {
    const done = () => {
      setCreated(null);
      requestAnimationFrame(() => form.focus('name'));
    };
    return <NewToken token={created} onDone={done} />;
  }
  return (
    <form
      className="form create-token"
      noValidate
      data-testid="create-token-form"
      onSubmit={(event) => {
        event.preventDefault();
        setProblem(null);
        // A token left unnamed is called after its app.
        const name = form.values.name.trim() || t(`sync.app.${app}`);
        const input = form.check(zCreateSyncTokenInput, { app, name });
        if (input) create.mutate(input);
      }}
    >
      <div className="create-token-fields">
        <TextField
          form={form}
          name="name"
          label={t('sync.tokenName')}
          placeholder={t('sync.tokenNamePlaceholder')}
          hint={t('sync.tokenNameHint')}
          autoComplete="off"
        />
        <div className="field">
          <label htmlFor={appId}>{t('sync.tokenApp')}</label>
          <select
            id={appId}
            className="text-control"
            value={app}
            data-testid="token-app"
            onChange={(e) => setApp(e.target.value as PullApp)}
          >
            {PULL_APPS.map((a) => (
              <option key={a} value={a}>
                {t(`sync.app.${a}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {t('sync.createToken')}
        </button>
      </div>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
