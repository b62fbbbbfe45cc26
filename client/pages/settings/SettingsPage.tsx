import { useTranslation } from 'react-i18next';
import { Link, Redirect } from 'wouter';
import { SETTINGS_SECTIONS, settingsPageFor } from './settings-pages.ts';

export function SettingsPage({ segment }: { segment: string }) {
  const { t } = useTranslation();
  const page = settingsPageFor(segment);
  if (!page) return <Redirect to="/404" replace />;
  return (
    <div className="settings" data-testid={`settings-${page}`}>
      <nav className="settings-nav" aria-label={t('settings.title')}>
        {SETTINGS_SECTIONS.map((section) => (
          <div key={section.titleKey} className="settings-nav-section">
            <h2>{t(section.titleKey)}</h2>
            <ul>
              {section.pages.map((p) => (
                <li key={p}>
                  <Link
                    href={`/personSetting/${p}`}
                    className="settings-link"
                    aria-current={p === page ? 'page' : undefined}
                  >
                    {t(`settings.${p}`)}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <section className="settings-body">
        <h1>{t(`settings.${page}`)}</h1>
        <p className="muted">{t('settings.notYet')}</p>
      </section>
    </div>
  );
}
