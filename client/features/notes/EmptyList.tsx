import { useTranslation } from 'react-i18next';
import { TRASH_RETENTION_DAYS } from '../../../src/constants.ts';
import { formatCount } from '../../../src/rules/format-count.ts';
import { Icon, type IconName } from '../../components/icons/Icon.tsx';
import { navEntry } from './nav-entries.ts';
import { type NoteFilters, searchText } from './note-list-url.ts';

/** How long the trash keeps a note, written as the reader's language writes numbers. */
const trashDays = (language: string) => formatCount(TRASH_RETENTION_DAYS, language);

interface EmptyState {
  /** Which empty it is, for tests: search, folder, trash, view or library. */
  kind: string;
  icon: IconName;
  title: string;
  body: string;
}

/**
 * What an empty list says: what is empty and what to do about it. A search or a tag first, then
 * a folder, the trash, another view; only the whole library unfiltered is "nothing saved yet".
 */
function emptyState(filters: NoteFilters, { t, i18n }: ReturnType<typeof useTranslation>): EmptyState {
  const query = searchText(filters);
  if (query)
    return {
      kind: 'search',
      icon: 'search',
      title: t('home.emptySearchTitle', { query }),
      body: t('home.emptySearchBody'),
    };
  if (filters.folderId)
    return {
      kind: 'folder',
      icon: 'folder',
      title: t('home.emptyFolderTitle'),
      body: t('home.emptyFolderBody'),
    };
  if (filters.nav === 'trash')
    return {
      kind: 'trash',
      icon: 'trash',
      title: t('home.emptyTrashTitle'),
      body: t('home.emptyTrashBody', { days: trashDays(i18n.language) }),
    };
  const view = navEntry(filters.nav);
  if (view.id !== 'all')
    return {
      kind: 'view',
      icon: view.icon,
      title: t('home.emptyViewTitle', { view: t(view.labelKey) }),
      body: t('home.emptyViewBody'),
    };
  return { kind: 'library', icon: 'inbox', title: t('home.emptyTitle'), body: t('home.emptyBody') };
}

export function EmptyList({ filters }: { filters: NoteFilters }) {
  const state = emptyState(filters, useTranslation());
  return (
    <div className="empty-state" data-testid="note-list-empty" data-empty={state.kind}>
      <Icon name={state.icon} size={40} />
      <h2>{state.title}</h2>
      <p>{state.body}</p>
    </div>
  );
}

/** Above the trash's notes: when they go for good. */
export function TrashNotice() {
  const { t, i18n } = useTranslation();
  return (
    <p className="muted list-notice" data-testid="trash-notice">
      {t('home.trashNotice', { days: trashDays(i18n.language) })}
    </p>
  );
}
