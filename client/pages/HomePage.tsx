import { hashKey, type QueryClient, useQuery } from '@tanstack/react-query';
import { Activity, lazy, Suspense, useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { HOME_LIST_INPUT } from '../../src/boot-data.ts';
import { parseDeepLink } from '../../src/deep-link.ts';
import type { NoteList as NoteListChunk } from '../../src/schemas/notes.ts';
import { Icon } from '../components/icons/Icon.tsx';
import { SaveUrlForm } from '../features/clip/SaveUrlForm.tsx';
import { ListHeading } from '../features/notes/ListHeading.tsx';
import { readStoredSort, useStoredSort, useViewStyle } from '../features/notes/local-pref.ts';
import { NoteList, noteListOptions } from '../features/notes/NoteList.tsx';
import { navEntry } from '../features/notes/nav-entries.ts';
import {
  hasNarrowing,
  type NoteFilters,
  readFilters,
  searchText,
  withFilters,
} from '../features/notes/note-list-url.ts';
import { SearchBox } from '../features/notes/SearchBox.tsx';
import { LazyReader } from '../features/reader/preload-reader.ts';
import { readerPath } from '../features/reader/reader-links.ts';
import { withTranslations } from '../i18n.ts';
import { useTRPC } from '../trpc.ts';
import '../styles/notes.css';

// Not needed to show the list: they follow right after the first paint.
const FilterChips = lazy(() =>
  import('../features/notes/FilterChips.tsx').then((m) => ({ default: m.FilterChips })),
);
const ListControls = lazy(() =>
  import('../features/notes/ListControls.tsx').then((m) => ({ default: m.ListControls })),
);
const HighlightLinkResolver = lazy(() =>
  withTranslations(import('../features/reader/HighlightLinkResolver.tsx'), 'highlightLink'),
);
const RecentDailyNotes = lazy(() =>
  withTranslations(import('../features/daily/RecentDailyNotes.tsx'), 'recentDailyNotes'),
);

/**
 * Before React renders: the list `/?…` shows (none when it opens the reader), taken from
 * `firstChunk` (what index.html carried for HOME_LIST_INPUT) when that is the list, else asked for.
 */
export function preloadHomeList(
  queryClient: QueryClient,
  trpc: ReturnType<typeof useTRPC>,
  search: string,
  firstChunk: NoteListChunk | undefined,
): void {
  if (parseDeepLink(search)) return;
  const filters = readFilters(search);
  const options = noteListOptions(trpc, filters, filters.sort ?? readStoredSort());
  const carried = trpc.notes.list.infiniteQueryKey(HOME_LIST_INPUT);
  if (firstChunk && hashKey(options.queryKey) === hashKey(carried)) {
    queryClient.setQueryData(options.queryKey, {
      pages: [firstChunk],
      pageParams: [options.initialPageParam],
    });
  } else {
    void queryClient.prefetchInfiniteQuery(options);
  }
}

/** History state marking a reader entry pushed from the list, so Back can simply go back. */
const FROM_LIST = { marginFromList: true } as const;

function cameFromList(): boolean {
  return (window.history.state as typeof FROM_LIST | null)?.marginFromList === true;
}

/**
 * `/`: the note list ("mine") with its filters in the address, or the reader for `?pi=…`.
 * It stays mounted while the user is elsewhere.
 */
export function HomePage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = useMemo(() => readFilters(search), [search]);
  const entry = navEntry(filters.nav);
  const deepLink = parseDeepLink(search);
  const readerNoteId = deepLink?.kind === 'note' ? deepLink.noteId : null;
  const { data: me } = useQuery(trpc.auth.me.queryOptions());
  const view = useViewStyle();
  const storedSort = useStoredSort();
  const sort = filters.sort ?? storedSort;

  // The list keeps its place: remember the scroll position on opening a note, restore it on return.
  const listScroll = useRef(0);
  const openNote = useCallback(
    (noteId: string) => {
      listScroll.current = window.scrollY;
      navigate(readerPath(noteId, view), { state: FROM_LIST });
    },
    [navigate, view],
  );
  const closeReader = useCallback(() => {
    if (cameFromList()) window.history.back();
    else navigate(withFilters(window.location.search, {}), { replace: true });
  }, [navigate]);
  useLayoutEffect(() => {
    if (!readerNoteId) window.scrollTo(0, listScroll.current);
  }, [readerNoteId]);
  const setFilters = useCallback(
    (change: Partial<NoteFilters>) => {
      listScroll.current = 0;
      navigate(withFilters(window.location.search, change));
      window.scrollTo(0, 0);
    },
    [navigate],
  );
  const filterTag = useCallback((tag: string) => setFilters({ tags: [tag] }), [setFilters]);

  return (
    <section
      className="page"
      data-testid="home"
      data-deep-link={deepLink ? JSON.stringify(deepLink) : undefined}
    >
      {me === null && (
        <>
          <header className="page-header">
            <h1>{t(entry.labelKey)}</h1>
          </header>
          <div className="empty-state">
            <Icon name={entry.icon} size={40} />
            <h2>{t('home.emptyTitle')}</h2>
            <p>{t('home.signInPrompt')}</p>
            <Link href="/login" className="button button-primary">
              {t('nav.login')}
            </Link>
          </div>
        </>
      )}
      {me && deepLink?.kind === 'highlight' && (
        <Suspense fallback={null}>
          <HighlightLinkResolver highlightId={deepLink.highlightId} viewStyle={deepLink.viewStyle} />
        </Suspense>
      )}
      {me && readerNoteId && (
        <Suspense fallback={<p className="muted">{t('app.loading')}</p>}>
          <LazyReader key={readerNoteId} noteId={readerNoteId} onBack={closeReader} />
        </Suspense>
      )}
      {me && (
        <Activity mode={readerNoteId ? 'hidden' : 'visible'}>
          <header className="page-header notes-header">
            <ListHeading filters={filters} />
            <SearchBox value={searchText(filters)} onSearch={setFilters} />
          </header>
          {filters.nav !== 'trash' && <SaveUrlForm />}
          {filters.nav === '24h' && (
            <Suspense fallback={null}>
              <RecentDailyNotes />
            </Suspense>
          )}
          <div className="notes-bar">
            <Suspense fallback={null}>
              {hasNarrowing(filters) && <FilterChips filters={filters} onChange={setFilters} />}
            </Suspense>
            <Suspense fallback={<div className="list-controls" />}>
              <ListControls view={view} sort={sort} onSort={(next) => setFilters({ sort: next })} />
            </Suspense>
          </div>
          <NoteList
            key={`${filters.nav}|${searchText(filters)}|${filters.folderId}|${sort}`}
            filters={filters}
            sort={sort}
            view={view}
            onOpen={openNote}
            onFilterTag={filterTag}
          />
        </Activity>
      )}
    </section>
  );
}
