import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { type Me, zLoginInput } from '../../src/schemas/auth.ts';
import { TextField, useForm } from '../components/form.tsx';
import { Agreement } from '../features/auth/Agreement.tsx';
import { AuthLayout } from '../features/auth/AuthLayout.tsx';
import { OtherLoginMethods, oidcFailed, useOidcProvider } from '../features/auth/OtherLoginMethods.tsx';
import { nextPath, useMe, useSignedIn } from '../features/auth/session.ts';
import { notify } from '../lib/notify.ts';
import { useTRPC } from '../trpc.ts';

/** /login: email and password, or another method, and the agreement; then back to `?next=` or home. */
export function LoginPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const search = useSearch();
  const next = nextPath(search);
  const providerFailed = oidcFailed(search);
  const provider = useOidcProvider();
  const { data: me } = useMe();
  const signedIn = useSignedIn();
  const form = useForm({ email: '', password: '' });
  const [rememberMe, setRememberMe] = useState(false);
  const finish = (user: Me) => {
    notify.success('toast.loginSuccess');
    navigate(next, { replace: true });
    signedIn(user);
  };
  const login = useMutation(
    trpc.auth.login.mutationOptions({ onSuccess: (result) => finish(result.me), onError: form.fail }),
  );
  // A signed-in user only meets a provider failure after trying to connect an account.
  if (me)
    return (
      <Redirect to={providerFailed ? `/personSetting/authbind${search ? `?${search}` : ''}` : next} replace />
    );

  return (
    <AuthLayout
      title={t('auth.loginTitle')}
      subtitle={t('auth.loginSubtitle')}
      aside={<OtherLoginMethods next={next} onSignedIn={finish} />}
    >
      {providerFailed && (
        <p className="notice notice-warning" role="alert">
          {t('errors.oidcFailed', { provider: provider ?? 'Google' })}
        </p>
      )}
      {next.startsWith('/qrlogin/') && <p className="notice">{t('auth.qrSignInFirst')}</p>}
      <form
        className="form"
        data-testid="login-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const input = form.check(zLoginInput, { ...form.values, rememberMe });
          if (input) login.mutate(input);
        }}
      >
        <TextField form={form} name="email" label={t('auth.email')} type="email" autoComplete="username" />
        <TextField
          form={form}
          name="password"
          label={t('auth.password')}
          type="password"
          autoComplete="current-password"
        />
        <div className="form-inline">
          <label className="checkbox">
            <input
              type="checkbox"
              name="rememberMe"
              checked={rememberMe}
              onChange={(event) => setRememberMe(event.target.checked)}
            />
            <span>{t('auth.rememberMe')}</span>
          </label>
          <Link href="/forget">{t('auth.forgotPassword')}</Link>
        </div>
        <Agreement />
        <button type="submit" className="button button-primary button-block" disabled={login.isPending}>
          {t('auth.submitLogin')}
        </button>
        <p className="form-switch">
          {t('auth.noAccount')} <Link href="/register">{t('auth.submitRegister')}</Link>
        </p>
      </form>
    </AuthLayout>
  );
}
