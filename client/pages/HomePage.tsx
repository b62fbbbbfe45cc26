import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { parseDeepLink } from '../../src/deep-link.ts';
import { Icon } from '../components/icons/Icon.tsx';
import { navEntry } from '../features/library/nav-entries.ts';

/** `/`: the notes list ("mine"). It stays mounted while the user is elsewhere. */
export function HomePage() {
  const { t } = useTranslation();
  const search = useSearch();
  const entry = navEntry(new URLSearchParams(search).get('nav'));
  const deepLink = parseDeepLink(search);
  return (
    <section
      className="page"
      data-testid="home"
      data-deep-link={deepLink ? JSON.stringify(deepLink) : undefined}
    >
      <header className="page-header">
        <h1>{t(entry.labelKey)}</h1>
      </header>
      <div className="empty-state">
        <Icon name={entry.icon} size={40} />
        <h2>{t('home.emptyTitle')}</h2>
        <p>{t('home.emptyBody')}</p>
      </div>
    </section>
  );
}
