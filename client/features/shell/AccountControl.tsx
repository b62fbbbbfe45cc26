import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { Icon } from '../../components/icons/Icon.tsx';
import { withTranslations } from '../../i18n.ts';
import { loginPathFor, useMe } from '../auth/session.ts';

// The menu (and Radix's dropdown with it) loads when it is first wanted: hovered, focused or
// opened. Until then a plain button of the same look stands in for its trigger.
const loadAccountMenu = () => withTranslations(import('../account/AccountMenu.tsx'), 'accountMenu');
const AccountMenu = lazy(() => loadAccountMenu().then((m) => ({ default: m.AccountMenu })));

/** "Sign in" when signed out; the nickname with its menu when signed in. */
export function AccountControl() {
  const { t } = useTranslation();
  const [location] = useLocation();
  const { data: me } = useMe();
  const [opened, setOpened] = useState(false);
  if (me === undefined) return null;
  if (me === null) {
    return (
      <Link href={location === '/' ? '/login' : loginPathFor(location)} className="button button-small">
        {t('nav.login')}
      </Link>
    );
  }
  const trigger = (
    <button
      type="button"
      className="account-trigger"
      data-testid="account-menu"
      aria-label={t('nav.accountMenu')}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadAccountMenu()}
      onFocus={() => void loadAccountMenu()}
      onClick={() => setOpened(true)}
    >
      <Icon name="user" />
      <span className="account-name">{me.nickname}</span>
    </button>
  );
  if (!opened) return trigger;
  return (
    <Suspense fallback={trigger}>
      <AccountMenu me={me} defaultOpen />
    </Suspense>
  );
}
