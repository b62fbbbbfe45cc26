import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { navEntry } from './nav-entries.ts';
import type { NoteFilters } from './note-list-url.ts';
import { useFolderName } from './use-folder-name.ts';

/**
 * The list's heading names what it shows: the view (left out for All when something narrows it),
 * the folder, the tags and the search, e.g. "Later · Research · Search: “river”". The tab's
 * title says the same while the list is on screen.
 */
export function ListHeading({ filters }: { filters: NoteFilters }) {
  const { t } = useTranslation();
  const folderName = useFolderName(filters.folderId);
  const entry = navEntry(filters.nav);
  const parts: string[] = [];
  if (filters.folderId) parts.push(folderName);
  if (filters.tags.length) parts.push(filters.tags.map((tag) => `#${tag}`).join(' '));
  if (filters.kw) parts.push(t('notes.searchHeading', { query: filters.kw }));
  if (entry.id !== 'all' || parts.length === 0) parts.unshift(t(entry.labelKey));
  const heading = parts.join(' · ');
  const appName = t('app.name');
  useEffect(() => {
    document.title = `${heading} – ${appName}`;
    return () => {
      document.title = appName;
    };
  }, [heading, appName]);
  return (
    <h1 data-testid="notes-title" data-nav={entry.id} dir="auto">
      {heading}
    </h1>
  );
}
