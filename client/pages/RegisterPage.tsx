import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { type Me, zRegisterInput } from '../../src/schemas/auth.ts';
import { Agreement } from '../features/auth/Agreement.tsx';
import { AuthLayout } from '../features/auth/AuthLayout.tsx';
import { CodePasswordFields, useCodePasswordForm } from '../features/auth/CodePasswordFields.tsx';
import { OtherLoginMethods } from '../features/auth/OtherLoginMethods.tsx';
import { useSignedIn } from '../features/auth/session.ts';
import { notify } from '../lib/notify.ts';
import { useTRPC } from '../trpc.ts';

/**
 * /register: email, emailed code, password twice and the agreement, or another method (a provider,
 * QR phone login); signed in afterwards.
 */
export function RegisterPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const signedIn = useSignedIn();
  const form = useCodePasswordForm();
  // Another method signs in to an account that already exists (or, with a provider, makes one).
  const signedInElsewhere = (me: Me) => {
    notify.success('toast.loginSuccess');
    navigate('/', { replace: true });
    signedIn(me);
  };
  const register = useMutation(
    trpc.auth.register.mutationOptions({
      onSuccess: (result) => {
        notify.success('auth.registered');
        navigate('/', { replace: true });
        signedIn(result.me);
      },
      onError: form.fail,
    }),
  );
  return (
    <AuthLayout
      title={t('auth.registerTitle')}
      subtitle={t('auth.registerSubtitle')}
      aside={<OtherLoginMethods next="/" onSignedIn={signedInElsewhere} />}
    >
      <form
        className="form"
        data-testid="register-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const input = form.check(zRegisterInput, form.values);
          if (input) register.mutate(input);
        }}
      >
        <CodePasswordFields form={form} purpose="register" passwordLabel={t('auth.password')} />
        <Agreement />
        <button type="submit" className="button button-primary button-block" disabled={register.isPending}>
          {t('auth.submitRegister')}
        </button>
        <p className="form-switch">
          {t('auth.haveAccount')} <Link href="/login">{t('auth.submitLogin')}</Link>
        </p>
      </form>
    </AuthLayout>
  );
}
