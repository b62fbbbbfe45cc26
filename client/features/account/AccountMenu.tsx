import { DropdownMenu } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Me } from '../../../src/schemas/auth.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { useSignOut } from './use-sign-out.ts';

/** The signed-in user's menu in the top bar (loaded on demand: the home route stays small). */
export function AccountMenu({ me, defaultOpen = false }: { me: Me; defaultOpen?: boolean }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { signOut, signOutEverywhere } = useSignOut();
  return (
    <DropdownMenu.Root defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger
        className="account-trigger"
        data-testid="account-menu"
        aria-label={t('nav.accountMenu')}
      >
        <Icon name="user" />
        <span className="account-name">{me.nickname}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          <DropdownMenu.Label className="menu-label">
            {t('auth.signedInAs', { name: me.nickname })}
          </DropdownMenu.Label>
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate('/personSetting/user')}>
            <Icon name="settings" size={16} className="menu-icon" />
            {t('nav.settings')}
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={signOut} data-testid="sign-out">
            <Icon name="back" size={16} className="menu-icon" />
            {t('nav.logout')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={signOutEverywhere}>
            <Icon name="close" size={16} className="menu-icon" />
            {t('auth.logoutEverywhere')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
