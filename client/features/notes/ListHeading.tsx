import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../trpc.ts';
import { navEntry } from './nav-entries.ts';
import type { NoteFilters } from './note-list-url.ts';

/**
 * The list's heading names what it shows: the view (left out for All when something narrows it),
 * the folder, the tags and the search, e.g. "Later · Research · Search: “river”". The tab's
 * title says the same while the list is on screen.
 */
export function ListHeading({ filters }: { filters: NoteFilters }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const folders = useQuery({ ...trpc.folders.list.queryOptions(), enabled: filters.folderId !== null });
  const entry = navEntry(filters.nav);
  const parts: string[] = [];
  if (filters.folderId)
    parts.push(folders.data?.find((f) => f.id === filters.folderId)?.name ?? t('nav.folder'));
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
