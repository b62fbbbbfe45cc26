import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { zResetPasswordInput } from '../../src/schemas/auth.ts';
import { AuthLayout } from '../features/auth/AuthLayout.tsx';
import { CodePasswordFields, useCodePasswordForm } from '../features/auth/CodePasswordFields.tsx';
import { useSignedOut } from '../features/auth/session.ts';
import { notify } from '../lib/notify.ts';
import { useTRPC } from '../trpc.ts';

/** /forget: a code to the account's email, then a new password; every session is signed out. */
export function ForgetPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const signedOut = useSignedOut();
  const form = useCodePasswordForm();
  const reset = useMutation(
    trpc.auth.resetPassword.mutationOptions({
      onSuccess: () => {
        notify.info('auth.passwordReset');
        navigate('/login', { replace: true });
        // Recovery signs out every session, this browser's included.
        signedOut();
      },
      onError: form.fail,
    }),
  );
  return (
    <AuthLayout title={t('auth.forgetTitle')} subtitle={t('auth.forgetSubtitle')}>
      <form
        className="form"
        data-testid="forget-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const input = form.check(zResetPasswordInput, form.values);
          if (input) reset.mutate(input);
        }}
      >
        <CodePasswordFields form={form} purpose="reset" passwordLabel={t('auth.newPassword')} />
        <button type="submit" className="button button-primary button-block" disabled={reset.isPending}>
          {t('auth.submitReset')}
        </button>
        <p className="form-switch">
          <Link href="/login">{t('auth.backToLogin')}</Link>
        </p>
      </form>
    </AuthLayout>
  );
}
