import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { type Me, zChangePasswordInput } from '../../../src/schemas/auth.ts';
import { TextField, useForm } from '../../components/form.tsx';
import { NewPasswordFields } from '../../features/auth/CodePasswordFields.tsx';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';

/** /personSetting/updatepassword: the current password, then the new one twice. */
export function PasswordSettings({ me }: { me: Me }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const form = useForm(
    { oldPassword: '', password: '', repeatPassword: '' },
    { 'errors.passwordWrong': 'oldPassword' },
  );
  const change = useMutation(
    trpc.account.changePassword.mutationOptions({
      onSuccess: () => {
        form.reset();
        notify.info('account.passwordChanged');
      },
      onError: form.fail,
    }),
  );
  if (!me.hasPassword) {
    return (
      <div className="settings-stack">
        <p className="notice">{t('account.noPassword')}</p>
        {me.email && (
          <div>
            <Link href="/forget" className="button">
              {t('auth.forgotPassword')}
            </Link>
          </div>
        )}
      </div>
    );
  }
  return (
    <form
      className="form form-narrow"
      noValidate
      data-testid="password-form"
      onSubmit={(event) => {
        event.preventDefault();
        const input = form.check(zChangePasswordInput, form.values);
        if (input) change.mutate(input);
      }}
    >
      {/* Lets password managers pair the new password with the account. */}
      <input type="hidden" name="username" autoComplete="username" value={me.email ?? me.accountId} />
      <TextField
        form={form}
        name="oldPassword"
        label={t('account.oldPassword')}
        type="password"
        autoComplete="current-password"
      />
      <NewPasswordFields form={form} label={t('auth.newPassword')} />
      <div>
        <button type="submit" className="button button-primary" disabled={change.isPending}>
          {t('account.changePassword')}
        </button>
      </div>
    </form>
  );
}
