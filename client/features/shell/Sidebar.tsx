import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { Icon, type IconName } from '../../components/icons/Icon.tsx';
import { NAV_ENTRIES, navEntry } from '../library/nav-entries.ts';

function NavLink(props: {
  href: string;
  icon: IconName;
  label: string;
  active: boolean;
  compact: boolean;
  onNavigate?: () => void;
}) {
  return (
    <Link
      href={props.href}
      className="nav-link"
      aria-current={props.active ? 'page' : undefined}
      title={props.compact ? props.label : undefined}
      onClick={props.onNavigate}
    >
      <Icon name={props.icon} />
      <span className="nav-label">{props.label}</span>
    </Link>
  );
}

/** The left navigation: library entries, then highlights, daily notes and settings. */
export function Sidebar({ compact, onNavigate }: { compact: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const search = useSearch();
  const activeNav = location === '/' ? navEntry(new URLSearchParams(search).get('nav')).id : null;
  return (
    <nav className="sidebar-nav" aria-label={t('nav.primary')}>
      <ul>
        {NAV_ENTRIES.map((entry) => (
          <li key={entry.id}>
            <NavLink
              href={entry.id === 'all' ? '/' : `/?nav=${entry.id}`}
              icon={entry.icon}
              label={t(entry.labelKey)}
              active={activeNav === entry.id}
              compact={compact}
              onNavigate={onNavigate}
            />
          </li>
        ))}
      </ul>
      <hr className="nav-divider" />
      <ul>
        <li>
          <NavLink
            href="/daily"
            icon="calendar"
            label={t('nav.daily')}
            active={location === '/daily'}
            compact={compact}
            onNavigate={onNavigate}
          />
        </li>
        <li>
          <NavLink
            href="/personSetting/user"
            icon="settings"
            label={t('nav.settings')}
            active={location.startsWith('/personSetting')}
            compact={compact}
            onNavigate={onNavigate}
          />
        </li>
      </ul>
    </nav>
  );
}
