import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { Icon } from '../../components/icons/Icon.tsx';
import { loginPathFor, useMe } from '../auth/session.ts';

const AccountMenu = lazy(() =>
  import('../account/AccountMenu.tsx').then((m) => ({ default: m.AccountMenu })),
);

/** "Sign in" when signed out; the nickname with its menu when signed in. */
export function AccountControl() {
  const { t } = useTranslation();
  const [location] = useLocation();
  const { data: me } = useMe();
  if (me === undefined) return null;
  if (me === null) {
    return (
      <Link href={location === '/' ? '/login' : loginPathFor(location)} className="button button-small">
        {t('nav.login')}
      </Link>
    );
  }
  const placeholder = (
    <span className="account-trigger" aria-hidden="true">
      <Icon name="user" />
      <span className="account-name">{me.nickname}</span>
    </span>
  );
  return (
    <Suspense fallback={placeholder}>
      <AccountMenu me={me} />
    </Suspense>
  );
}
