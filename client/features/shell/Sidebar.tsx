import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { STORAGE_KEYS } from '../../../src/constants.ts';
import { formatCount } from '../../../src/rules/format-count.ts';
import { Icon, type IconName } from '../../components/icons/Icon.tsx';
import { withTranslations } from '../../i18n.ts';
import { useTRPC } from '../../trpc.ts';
import { useMe } from '../auth/session.ts';
import { useStoredList, writeStoredList } from '../notes/local-pref.ts';
import { NAV_ENTRIES, type NavEntry } from '../notes/nav-entries.ts';
import { NotesIcon } from '../notes/note-icons.tsx';
import { filtersPath, readFilters, withFilters } from '../notes/note-list-url.ts';

// Tag and folder management load when their section is first opened.
const TagSection = lazy(() =>
  withTranslations(import('../notes/TagSection.tsx'), 'tagSection').then((m) => ({ default: m.TagSection })),
);
const FolderSection = lazy(() =>
  withTranslations(import('../notes/FolderSection.tsx'), 'folderSection').then((m) => ({
    default: m.FolderSection,
  })),
);

function NavLink(props: {
  href: string;
  icon: IconName;
  label: string;
  active: boolean;
  compact: boolean;
  count?: number;
  testId?: string;
  onNavigate?: () => void;
}) {
  const { i18n } = useTranslation();
  return (
    <Link
      href={props.href}
      className="nav-link"
      aria-current={props.active ? 'page' : undefined}
      title={props.compact ? props.label : undefined}
      data-nav={props.testId}
      onClick={props.onNavigate}
    >
      <Icon name={props.icon} />
      <span className="nav-label">{props.label}</span>
      {props.count !== undefined && props.count > 0 && (
        <span className="nav-count" data-count={props.count}>
          {formatCount(props.count, i18n.language)}
        </span>
      )}
    </Link>
  );
}

/** An expanding entry (Tag, Folder, Navigation): a toggle, and its content while open. */
function NavSection(props: {
  entry: NavEntry;
  open: boolean;
  onToggle(): void;
  compact: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const label = t(props.entry.labelKey);
  return (
    <>
      <button
        type="button"
        className="nav-link nav-section-toggle"
        aria-expanded={props.open}
        data-nav={props.entry.id}
        title={props.compact ? label : undefined}
        onClick={props.onToggle}
      >
        <Icon name={props.entry.icon} />
        <span className="nav-label">{label}</span>
        <NotesIcon name="chevron" size={14} />
      </button>
      {props.open && !props.compact && <Suspense fallback={null}>{props.children}</Suspense>}
    </>
  );
}

/** Navigation: quick links to the recent searches (newest first), so a search is one click away. */
function QuickLinks({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const recent = useStoredList(STORAGE_KEYS.searchHistory).slice(0, 6);
  if (recent.length === 0) return <p className="nav-empty muted">{t('notes.noRecentSearches')}</p>;
  return (
    <ul className="nav-sublist" data-testid="quick-links">
      {recent.map((keyword) => (
        <li key={keyword}>
          <Link
            href={filtersPath({ kw: keyword.replace(/(^|\s)[#＃]\S*/g, '').trim(), tags: [] })}
            className="nav-sublink"
            dir="auto"
            onClick={onNavigate}
          >
            <Icon name="search" size={14} />
            <span className="nav-label">{keyword}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

const FOLDER_SECTION_KEY = '*';

/** The left navigation: note views with counts, Tag/Folder/Navigation sections, then the other screens. */
export function Sidebar({ compact, onNavigate }: { compact: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [location] = useLocation();
  const search = useSearch();
  const { data: me } = useMe();
  const counts = useQuery({ ...trpc.notes.counts.queryOptions(), enabled: Boolean(me) });
  const onHome = location === '/';
  const filters = onHome ? readFilters(search) : null;
  // All is the list unnarrowed: with a tag or a folder chosen, that entry is the one marked.
  const tagOrFolderChosen = Boolean(filters && (filters.tags.length > 0 || filters.folderId !== null));
  const [tagsOpen, setTagsOpen] = useState(false);
  const [linksOpen, setLinksOpen] = useState(false);
  const expanded = useStoredList(STORAGE_KEYS.expandedFolders);
  const foldersOpen = expanded.includes(FOLDER_SECTION_KEY);
  const toggleFolders = () =>
    writeStoredList(
      STORAGE_KEYS.expandedFolders,
      foldersOpen ? expanded.filter((id) => id !== FOLDER_SECTION_KEY) : [...expanded, FOLDER_SECTION_KEY],
    );
  const sections: Record<string, { open: boolean; toggle(): void; content: ReactNode }> = {
    tag: {
      open: tagsOpen,
      toggle: () => setTagsOpen((o) => !o),
      content: <TagSection activeTags={filters?.tags ?? []} onNavigate={onNavigate} />,
    },
    folder: {
      open: foldersOpen,
      toggle: toggleFolders,
      content: <FolderSection activeFolderId={filters?.folderId ?? null} onNavigate={onNavigate} />,
    },
    navigation: {
      open: linksOpen,
      toggle: () => setLinksOpen((o) => !o),
      content: <QuickLinks onNavigate={onNavigate} />,
    },
  };
  return (
    <nav className="sidebar-nav" aria-label={t('nav.primary')} data-testid="sidebar-nav">
      <ul>
        {NAV_ENTRIES.map((entry) => {
          const section = sections[entry.id];
          return (
            <li key={entry.id}>
              {entry.kind === 'view' ? (
                <NavLink
                  href={onHome ? withFilters(search, { nav: entry.id }) : filtersPath({ nav: entry.id })}
                  icon={entry.icon}
                  label={t(entry.labelKey)}
                  active={filters?.nav === entry.id && !(entry.id === 'all' && tagOrFolderChosen)}
                  compact={compact}
                  count={counts.data?.[entry.id]}
                  testId={entry.id}
                  onNavigate={onNavigate}
                />
              ) : (
                section && (
                  <NavSection entry={entry} open={section.open} onToggle={section.toggle} compact={compact}>
                    {section.content}
                  </NavSection>
                )
              )}
            </li>
          );
        })}
      </ul>
      <hr className="nav-divider" />
      <ul>
        <li>
          <NavLink
            href="/highlights"
            icon="highlight"
            label={t('nav.highlights')}
            active={location === '/highlights'}
            compact={compact}
            onNavigate={onNavigate}
          />
        </li>
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
