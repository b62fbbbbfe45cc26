import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  API_SCOPES,
  API_TOKEN_EXPIRY_DAYS,
  type ApiScope,
  type ApiTokenExpiryDays,
  zCreateApiTokenInput,
} from '../../../src/schemas/api-tokens.ts';
import { CheckboxGroup } from '../../components/CheckboxGroup.tsx';
import { TextField, useForm } from '../../components/form.tsx';
import { errorMessage, upgradePathOf } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { NewApiTokenDialog } from './NewApiTokenDialog.tsx';

const NEVER = 'never';
/** A token made without choosing lasts this long: long enough for a shortcut, not forever. */
const DEFAULT_EXPIRY: ApiTokenExpiryDays = 90;

/** Name, scopes and expiry of a new API token; the plain token is then shown once in a dialog. */
export function CreateApiTokenForm() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const expiryId = useId();
  const form = useForm({ name: '' }, { 'errors.nameTooLong': 'name', 'errors.cannotBeEmpty': 'name' }, [
    'scopes',
  ]);
  const [scopes, setScopes] = useState<ApiScope[]>(['read']);
  const [expiry, setExpiry] = useState<string>(String(DEFAULT_EXPIRY));
  const [created, setCreated] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation(
    trpc.openapi.createToken.mutationOptions({
      onSuccess: ({ token }) => {
        setCreated(token);
        form.reset();
        void queryClient.invalidateQueries({ queryKey: trpc.openapi.tokens.queryKey() });
      },
      // A PRO refusal is a toast offering Upgrade; any other refusal not about a field stays here.
      onError: (error) => {
        if (form.showFieldErrors(error)) return;
        if (upgradePathOf(error)) notify.error(error);
        else setProblem(errorMessage(error, t));
      },
    }),
  );
  return (
    <>
      <form
        className="form api-token-form"
        noValidate
        data-testid="create-api-token-form"
        onSubmit={(event) => {
          event.preventDefault();
          setProblem(null);
          const input = form.check(zCreateApiTokenInput, {
            name: form.values.name,
            scopes,
            expiresInDays: expiry === NEVER ? null : Number(expiry),
          });
          if (input) create.mutate(input);
        }}
      >
        <div className="api-token-fields">
          <TextField
            form={form}
            name="name"
            label={t('openapi.tokenName')}
            placeholder={t('openapi.tokenNamePlaceholder')}
            hint={t('openapi.tokenNameHint')}
            autoComplete="off"
            dir="auto"
          />
          <div className="field">
            <label htmlFor={expiryId}>{t('openapi.expiry')}</label>
            <select
              id={expiryId}
              className="text-control"
              value={expiry}
              data-testid="api-token-expiry"
              onChange={(event) => setExpiry(event.target.value)}
            >
              <option value={NEVER}>{t('openapi.expiryNever')}</option>
              {API_TOKEN_EXPIRY_DAYS.map((days) => (
                <option key={days} value={days}>
                  {t(`openapi.expiryIn.d${days}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {/* Each scope with what it allows on a line of its own. */}
        <CheckboxGroup
          legend={t('openapi.scopesLabel')}
          form={form}
          name="scopes"
          options={API_SCOPES}
          value={scopes}
          onChange={setScopes}
          hints
          choice={(scope, inputId) => (
            // The label names the scope; what it allows is its description, read after the name.
            <span className="choice-text">
              <label htmlFor={inputId}>{t(`openapi.scope.${scope}`)}</label>
              <span id={`${inputId}-hint`} className="field-hint">
                {t(`openapi.scopeHint.${scope}`)}
              </span>
            </span>
          )}
          className="scope-choices"
          testId="api-token-scopes"
        />
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        <div>
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {t('openapi.createToken')}
          </button>
        </div>
      </form>
      {created && (
        <NewApiTokenDialog
          token={created}
          onDone={() => {
            setCreated(null);
            requestAnimationFrame(() => form.focus('name'));
          }}
        />
      )}
    </>
  );
}
