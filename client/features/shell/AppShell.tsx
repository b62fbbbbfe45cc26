import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { MOBILE_SIDEBAR_MAX } from '../../../src/constants.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { withTranslations } from '../../i18n.ts';
import { subscribeToExtensionMarks } from '../../lib/extension-marks.ts';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { currentRegionConfig } from '../../region.ts';
import { LanguageMenu } from '../i18n/LanguageMenu.tsx';
import { ThemeToggle } from '../theme/ThemeToggle.tsx';
import { useAccountAppearance } from '../theme/use-account-appearance.ts';
import { AccountControl } from './AccountControl.tsx';
import { Brand } from './Brand.tsx';
import { Sidebar } from './Sidebar.tsx';
import { useSidebarStyle } from './sidebar-style.ts';

const MobileDrawer = lazy(() => import('./MobileDrawer.tsx'));
const ExtensionUpdateBanner = lazy(() =>
  withTranslations(import('../browser-extension/ExtensionUpdateBanner.tsx'), 'extensionBanner').then((m) => ({
    default: m.ExtensionUpdateBanner,
  })),
);

/** The browser extension's version, once its content script has marked the page. */
const markedExtensionVersion = () => document.documentElement.getAttribute('v');

/** The mainland-China registration note, shown only in the chn region. */
export function Footer() {
  const { t } = useTranslation();
  const noteKey = currentRegionConfig().footerNoteKey;
  if (!noteKey) return null;
  return (
    <footer className="app-footer" data-testid="regulatory-footer">
      {t(noteKey)}
    </footer>
  );
}

/** Theme, language and account controls: shared by the app and the sign-in pages. */
export function TopBarActions({ account = true }: { account?: boolean }) {
  return (
    <div className="topbar-actions">
      <LanguageMenu />
      <ThemeToggle />
      {account && <AccountControl />}
    </div>
  );
}

/** Left navigation (list, mini or hidden; a drawer at 600 px or less), top bar and content. */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const mobile = useMediaQuery(`(max-width: ${MOBILE_SIDEBAR_MAX}px)`);
  const { style, cycle } = useSidebarStyle();
  useAccountAppearance();
  // Only pages an extension marked load the banner's code.
  const extensionVersion = useSyncExternalStore(subscribeToExtensionMarks, markedExtensionVersion);
  const sidebarStyle = mobile ? 'mobile' : style;
  return (
    <div className="app-shell" data-sidebar={sidebarStyle}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      {!mobile && style !== 'hide' && (
        <aside className="sidebar">
          <Brand />
          <Sidebar compact={style === 'mini'} />
        </aside>
      )}
      <div className="app-main-column">
        <header className="topbar">
          {mobile ? (
            <Suspense fallback={<span className="icon-button" />}>
              <MobileDrawer />
            </Suspense>
          ) : (
            <button
              type="button"
              className="icon-button"
              onClick={cycle}
              aria-label={style === 'hide' ? t('nav.expandSidebar') : t('nav.collapseSidebar')}
              data-testid="sidebar-style"
            >
              <Icon name="sidebar" />
            </button>
          )}
          {(mobile || style === 'hide') && <Brand />}
          <div className="topbar-spacer" />
          <TopBarActions />
        </header>
        {extensionVersion && (
          <Suspense fallback={null}>
            <ExtensionUpdateBanner version={extensionVersion} />
          </Suspense>
        )}
        <main id="main" className="app-content" tabIndex={-1}>
          {children}
        </main>
        <Footer />
      </div>
    </div>
  );
}
