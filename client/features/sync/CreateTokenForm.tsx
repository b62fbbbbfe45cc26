import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PULL_SERVICE_IDS, type PullApp, zCreateSyncTokenInput } from '../../../src/schemas/sync.ts';
import { TextField, useForm } from '../../components/form.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { useTRPC } from '../../trpc.ts';
import { syncErrorMessage } from './sync-errors.ts';

const PULL_APPS = Object.keys(PULL_SERVICE_IDS) as PullApp[];

const NEW_TOKEN_TEST_IDS = { box: 'new-token', value: 'new-token-value', copy: 'copy-token' };

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
    return (
      <ShownOnce
        title={t('sync.newTokenTitle')}
        warning={t('sync.newTokenWarning')}
        value={created}
        testIds={NEW_TOKEN_TEST_IDS}
        onDone={done}
      />
    );
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
