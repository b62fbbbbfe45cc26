import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { AuthLayout } from '../features/auth/AuthLayout.tsx';

export function LoginPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('auth.loginTitle')} subtitle={t('auth.loginSubtitle')}>
      <form className="form" data-testid="login-form" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>{t('auth.email')}</span>
          <input type="email" name="email" autoComplete="email" />
        </label>
        <label className="field">
          <span>{t('auth.password')}</span>
          <input type="password" name="password" autoComplete="current-password" />
        </label>
        <button type="submit" className="button button-primary button-block">
          {t('auth.submitLogin')}
        </button>
        <div className="form-links">
          <Link href="/forget">{t('auth.forgotPassword')}</Link>
          <Link href="/register">{t('auth.submitRegister')}</Link>
        </div>
      </form>
    </AuthLayout>
  );
}

export function RegisterPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('auth.registerTitle')} subtitle={t('auth.registerSubtitle')}>
      <p className="form-links">
        {t('auth.haveAccount')} <Link href="/login">{t('auth.submitLogin')}</Link>
      </p>
    </AuthLayout>
  );
}

export function ForgetPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('auth.forgetTitle')} subtitle={t('auth.forgetSubtitle')}>
      <p className="form-links">
        <Link href="/login">{t('auth.backToLogin')}</Link>
      </p>
    </AuthLayout>
  );
}
