import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons/Icon.tsx';
import { Brand } from './Brand.tsx';
import { Sidebar } from './Sidebar.tsx';

/** The left navigation as a drawer at 600 px or less; loaded only on phones. */
export default function MobileDrawer() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="icon-button" aria-label={t('nav.openMenu')} data-testid="open-drawer">
        <Icon name="menu" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="drawer-overlay" />
        <Dialog.Content className="drawer" aria-describedby={undefined}>
          <div className="drawer-head">
            <Brand />
            <Dialog.Close className="icon-button" aria-label={t('nav.closeMenu')}>
              <Icon name="close" />
            </Dialog.Close>
          </div>
          <Dialog.Title className="visually-hidden">{t('nav.primary')}</Dialog.Title>
          <Sidebar compact={false} onNavigate={() => setOpen(false)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
