import { type ComponentType, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Redirect } from 'wouter';
import type { Me } from '../../../src/schemas/auth.ts';
import { loginPathFor, useMe } from '../../features/auth/session.ts';
import { useMembershipSwitch } from '../../features/membership/use-membership-on.ts';
import { appOfSettingsPage } from '../../features/sync/apps.ts';
import { useSyncErrorMarks } from '../../features/sync/SyncErrorMark.tsx';
import { withTranslations } from '../../i18n.ts';
import {
  SETTINGS_SECTIONS,
  type SettingsPage as SettingsPageName,
  settingsPageFor,
} from './settings-pages.ts';

/**
 * The account screens, each loaded when first opened with the words only it shows (the settings
 * page brings those they share, screen-words.ts). The rest are still placeholders.
 */
const SCREENS: Partial<Record<SettingsPageName, ComponentType<{ me: Me }>>> = {
  user: lazy(() => import('./UserSettings.tsx').then((m) => ({ default: m.UserSettings }))),
  email: lazy(() => import('./EmailSettings.tsx').then((m) => ({ default: m.EmailSettings }))),
  updatepassword: lazy(() => import('./PasswordSettings.tsx').then((m) => ({ default: m.PasswordSettings }))),
  authbind: lazy(() => import('./AuthBindSettings.tsx').then((m) => ({ default: m.AuthBindSettings }))),
  deleteaccount: lazy(() =>
    import('./DeleteAccountSettings.tsx').then((m) => ({ default: m.DeleteAccountSettings })),
  ),
  synctoken: lazy(() =>
    withTranslations(import('./SyncTokenSettings.tsx'), 'syncTokenSettings').then((m) => ({
      default: m.SyncTokenSettings,
    })),
  ),
  openapi: lazy(() =>
    withTranslations(import('./OpenApiSettings.tsx'), 'openApiSettings').then((m) => ({
      default: m.OpenApiSettings,
    })),
  ),
  membership: lazy(() => import('./MembershipSettings.tsx').then((m) => ({ default: m.MembershipSettings }))),
  paylog: lazy(() => import('./PaylogSettings.tsx').then((m) => ({ default: m.PaylogSettings }))),
  color: lazy(() => import('./ColorSettings.tsx').then((m) => ({ default: m.ColorSettings }))),
  extsettings: lazy(() =>
    withTranslations(import('./ExtensionSettings.tsx'), 'extensionSettings').then((m) => ({
      default: m.ExtensionSettings,
    })),
  ),
  plugins: lazy(() =>
    withTranslations(import('./PluginsSettings.tsx'), 'pluginsSettings').then((m) => ({
      default: m.PluginsSettings,
    })),
  ),
  debuginfo: lazy(() =>
    withTranslations(import('./DebugInfoSettings.tsx'), 'debugInfoSettings').then((m) => ({
      default: m.DebugInfoSettings,
    })),
  ),
  guide: lazy(() =>
    withTranslations(import('./GuideSettings.tsx'), 'guideSettings').then((m) => ({
      default: m.GuideSettings,
    })),
  ),
  changelog: lazy(() =>
    withTranslations(import('./ChangelogSettings.tsx'), 'changelogSettings').then((m) => ({
      default: m.ChangelogSettings,
    })),
  ),
  feedback: lazy(() =>
    withTranslations(import('./FeedbackSettings.tsx'), 'feedbackSettings').then((m) => ({
      default: m.FeedbackSettings,
    })),
  ),
  rateus: lazy(() =>
    withTranslations(import('./RateUsSettings.tsx'), 'rateUsSettings').then((m) => ({
      default: m.RateUsSettings,
    })),
  ),
};

/** The five integration pages are one screen, drawn for the app the page names. */
const IntegrationSettings = lazy(() =>
  withTranslations(import('./IntegrationSettings.tsx'), 'integrationSettings').then((m) => ({
    default: m.IntegrationSettings,
  })),
);

const PLAN_PAGES: readonly SettingsPageName[] = ['membership', 'paylog'];

/** /personSetting/:page. Settings belong to an account: signed-out users are sent to /login. */
export function SettingsPage({ segment }: { segment: string }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const page = settingsPageFor(segment);
  const membership = useMembershipSwitch();
  const errorMark = useSyncErrorMarks(Boolean(me));
  // Without membership there are no plans to show: the pages stay reachable, not listed.
  const listed = (p: SettingsPageName) => membership?.on !== false || !PLAN_PAGES.includes(p);
  if (!page) return <Redirect to="/404" replace />;
  if (me === null) return <Redirect to={loginPathFor(`/personSetting/${segment}`)} replace />;
  const Screen = SCREENS[page];
  const integrationApp = appOfSettingsPage(page);
  const loading = <p className="muted">{t('app.loading')}</p>;
  return (
    <div className="settings" data-testid={`settings-${page}`}>
      <nav className="settings-nav" aria-label={t('settings.title')}>
        {SETTINGS_SECTIONS.map((section) => (
          <div key={section.titleKey} className="settings-nav-section">
            <h2>{t(section.titleKey)}</h2>
            <ul>
              {section.pages.filter(listed).map((p) => (
                <li key={p}>
                  <Link
                    href={`/personSetting/${p}`}
                    className="settings-link"
                    aria-current={p === page ? 'page' : undefined}
                  >
                    {t(`settings.${p}`)}
                    {errorMark(p)}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <section className="settings-body" aria-labelledby="settings-heading">
        <h1 id="settings-heading">{t(`settings.${page}`)}</h1>
        {!me ? (
          loading
        ) : integrationApp ? (
          <Suspense fallback={loading}>
            <IntegrationSettings app={integrationApp} />
          </Suspense>
        ) : Screen ? (
          <Suspense fallback={loading}>
            <Screen me={me} />
          </Suspense>
        ) : (
          <p className="muted">{t('settings.notYet')}</p>
        )}
      </section>
    </div>
  );
}
