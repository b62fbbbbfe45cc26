import { isEnumValue, NoteSort, type SortOrder } from '../../../src/enums.ts';
import { joinTags, splitTags } from '../../../src/rules/tags.ts';
import type { NavView } from '../../../src/schemas/notes.ts';
import { navEntry } from './nav-entries.ts';

/**
 * The list's filters as they live in the address: `?nav=…&tags=a,b&kw=…&fid=…&sort=…`.
 * `pi`/`vs`/`nx` (deep links) sit beside them and are left alone.
 */
export interface NoteFilters {
  nav: NavView;
  tags: string[];
  kw: string;
  folderId: string | null;
  sort: SortOrder | null;
}

export function readFilters(search: string): NoteFilters {
  const params = new URLSearchParams(search);
  const sort = params.get('sort');
  return {
    nav: navEntry(params.get('nav')).id,
    tags: splitTags(params.get('tags')),
    kw: (params.get('kw') ?? '').trim(),
    folderId: params.get('fid') || null,
    sort: isEnumValue(NoteSort, sort) ? sort : null,
  };
}

/** The address for `filters` (reader deep-link parameters dropped: choosing a filter shows the list). */
export function filtersPath(filters: Partial<NoteFilters>): string {
  const params = new URLSearchParams();
  if (filters.nav && filters.nav !== 'all') params.set('nav', filters.nav);
  if (filters.tags?.length) params.set('tags', joinTags(filters.tags));
  if (filters.kw) params.set('kw', filters.kw);
  if (filters.folderId) params.set('fid', filters.folderId);
  if (filters.sort) params.set('sort', filters.sort);
  const query = params.toString();
  return query ? `/?${query}` : '/';
}

/** `filters` with `change` applied, as an address. */
export function withFilters(search: string, change: Partial<NoteFilters>): string {
  return filtersPath({ ...readFilters(search), ...change });
}

/** Tags, a search, or a folder narrow the current view; one "Clear filters" removes them all. */
export function hasNarrowing(filters: NoteFilters): boolean {
  return filters.tags.length > 0 || filters.kw !== '' || filters.folderId !== null;
}

/** The search box's text for the filters: `#tag` words, then the keywords. */
export function searchText(filters: Pick<NoteFilters, 'tags' | 'kw'>): string {
  return [...filters.tags.map((t) => `#${t}`), filters.kw].filter(Boolean).join(' ');
}
