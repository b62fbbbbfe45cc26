import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { type Me, zDeleteAccountInput } from '../../../src/schemas/auth.ts';
import { TextField, useForm } from '../../components/form.tsx';
import { ConfirmDialog } from '../../features/account/ConfirmDialog.tsx';
import { CodeField } from '../../features/auth/CodePasswordFields.tsx';
import { useSignedOut } from '../../features/auth/session.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC, useTRPCClient } from '../../trpc.ts';

/**
 * /personSetting/deleteaccount: the irreversible-deletion warning, re-authentication (password,
 * or an emailed code when the account has no password) and a confirmation dialog.
 */
export function DeleteAccountSettings({ me }: { me: Me }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [, navigate] = useLocation();
  const signedOut = useSignedOut();
  const form = useForm(
    { password: '', code: '' },
    { 'errors.passwordWrong': 'password', 'errors.codeInvalid': 'code', 'errors.codeTooManyTries': 'code' },
  );
  const input = me.hasPassword ? { password: form.values.password } : { code: form.values.code };
  const remove = useMutation(
    trpc.account.delete.mutationOptions({
      onSuccess: () => {
        notify.info('account.deleted');
        navigate('/login', { replace: true });
        signedOut();
      },
      onError: form.fail,
    }),
  );
  return (
    <div className="settings-stack">
      <div className="danger-zone" role="note">
        <h2 className="section-title">{t('account.deleteWarningTitle')}</h2>
        <p>{t('account.deleteWarning')}</p>
      </div>
      <form
        className="form form-narrow"
        noValidate
        data-testid="delete-account-form"
        onSubmit={(event) => event.preventDefault()}
      >
        {me.hasPassword ? (
          <TextField
            form={form}
            name="password"
            label={t('account.deleteConfirmPassword')}
            type="password"
            autoComplete="current-password"
          />
        ) : (
          <CodeField
            form={form}
            label={t('account.deleteConfirmEmailCode')}
            send={() => client.account.sendDeleteCode.mutate()}
          />
        )}
        <div>
          <ConfirmDialog
            title={t('account.deleteConfirmTitle')}
            description={t('account.deleteWarning')}
            confirmLabel={t('account.deleteButton')}
            danger
            onConfirm={() => {
              const valid = form.check(zDeleteAccountInput, input);
              if (valid) remove.mutate(valid);
            }}
          >
            <button
              type="submit"
              className="button button-danger-solid"
              disabled={remove.isPending}
              data-testid="delete-account"
              onClick={(event) => {
                // Checked before asking, so the dialog only opens for something that can succeed.
                if (!form.check(zDeleteAccountInput, input)) event.preventDefault();
              }}
            >
              {t('account.deleteButton')}
            </button>
          </ConfirmDialog>
        </div>
      </form>
    </div>
  );
}
