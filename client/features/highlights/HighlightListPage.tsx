import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { isLinkId } from '../../../src/deep-link.ts';
import { CoreType, HighlightSort, isEnumValue } from '../../../src/enums.ts';
import type { HighlightListItem as Item } from '../../../src/schemas/highlights.ts';
import { useTRPC } from '../../trpc.ts';
import { MoveToDailyButton } from '../daily/move-to-daily.tsx';
import { NoteMarkers } from '../notes/NoteMarkers.tsx';
import { highlightPath } from '../reader/reader-links.ts';
import { AnnotationView } from './AnnotationView.tsx';
import { HighlightQuote } from './HighlightQuote.tsx';
import { COLOUR_SLOTS, highlightVars, isColourSlot } from './highlight-look.ts';
import { useColourNames } from './highlight-palette.ts';
import '../../styles/highlights.css';

const CHUNK = 30;

interface Filters {
  slotId: number | null;
  tag: string | null;
  noteId: string | null;
  sort: HighlightSort;
}

const SORTS = Object.entries(HighlightSort) as [keyof typeof HighlightSort, HighlightSort][];

function filtersOf(search: string): Filters {
  const params = new URLSearchParams(search);
  const slot = Number(params.get('colour'));
  const noteId = params.get('note');
  const sort = params.get('sort');
  return {
    slotId: isColourSlot(slot) ? slot : null,
    tag: params.get('tag')?.trim() || null,
    noteId: isLinkId(noteId) ? noteId : null,
    sort: isEnumValue(HighlightSort, sort) ? sort : HighlightSort.newestFirst,
  };
}

function searchOf(filters: Filters): string {
  const params = new URLSearchParams();
  if (filters.slotId) params.set('colour', String(filters.slotId));
  if (filters.tag) params.set('tag', filters.tag);
  if (filters.noteId) params.set('note', filters.noteId);
  if (filters.sort !== HighlightSort.newestFirst) params.set('sort', filters.sort);
  const search = params.toString();
  return search ? `?${search}` : '';
}

function HighlightItem({ item }: { item: Item }) {
  const { t } = useTranslation();
  const href = item.noteId ? highlightPath(item.noteId, item.id) : null;
  const quote = (
    <HighlightQuote
      imageUrl={item.coreType === CoreType.image ? item.imageUrl : null}
      text={item.text}
      textClassName="highlight-item-text"
    />
  );
  return (
    <li
      className="highlight-item"
      data-testid="highlight-item"
      data-highlight-id={item.id}
      data-slot={item.slotId}
      style={highlightVars(item.slotId)}
    >
      {href ? (
        <Link href={href} className="highlight-item-quote" data-testid="highlight-item-open" dir="auto">
          {quote}
        </Link>
      ) : (
        <div className="highlight-item-quote" dir="auto">
          {quote}
        </div>
      )}
      {item.annotation && (
        <AnnotationView markdown={item.annotation.message} className="highlight-item-annotation" />
      )}
      <div className="highlight-item-meta">
        {item.tags.map((tag) => (
          <span key={tag} className="tag-chip" dir="auto">
            {tag}
          </span>
        ))}
        {item.note && (
          <span className="highlight-item-note" title={item.note.url} dir="auto">
            <NoteMarkers note={item.note} inTrash={item.note.trashed} />
            {item.note.title || t('common.noTitle')}
          </span>
        )}
        <MoveToDailyButton
          ids={[item.id]}
          compact
          className="icon-button move-to-daily-compact highlight-item-move"
        />
      </div>
    </li>
  );
}

/**
 * `/highlights`: every highlight, newest first or in article order, by colour, tag and note,
 * loading more as it scrolls.
 */
export function HighlightListPage() {
  const { t } = useTranslation();
  const colourName = useColourNames();
  const trpc = useTRPC();
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = filtersOf(search);
  const setFilters = (change: Partial<Filters>) =>
    navigate(`/highlights${searchOf({ ...filters, ...change })}`, { replace: true });
  const tagSelect = useId();
  const sortSelect = useId();

  const tags = useQuery(trpc.notes.tags.queryOptions()).data ?? [];
  const list = useInfiniteQuery(
    trpc.highlights.list.infiniteQueryOptions(
      {
        limit: CHUNK,
        ...(filters.slotId && { slotId: filters.slotId }),
        ...(filters.tag && { tag: filters.tag }),
        ...(filters.noteId && { noteId: filters.noteId }),
        sort: filters.sort,
      },
      { getNextPageParam: (last) => last.nextCursor },
    ),
  );
  const items = list.data?.pages.flatMap((chunk) => chunk.items) ?? [];

  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const noteTitle = filters.noteId ? items.find((i) => i.note)?.note?.title : null;
  return (
    <section className="page highlight-list-page" data-testid="highlight-list-page">
      <header className="page-header">
        <h1>{t('nav.highlights')}</h1>
      </header>
      <div className="highlight-filters" data-testid="highlight-filters">
        <fieldset className="card-row" aria-label={t('highlights.colourLabel')}>
          {COLOUR_SLOTS.map((slot) => (
            <button
              key={slot}
              type="button"
              className="tooltip-button colour-button"
              data-testid={`filter-colour-${slot}`}
              aria-label={colourName(slot)}
              aria-pressed={filters.slotId === slot}
              onClick={() => setFilters({ slotId: filters.slotId === slot ? null : slot })}
            >
              <span className="colour-dot" style={highlightVars(slot)} aria-hidden="true" />
            </button>
          ))}
        </fieldset>
        <label htmlFor={tagSelect} className="visually-hidden">
          {t('nav.tag')}
        </label>
        <select
          id={tagSelect}
          className="highlight-tag-filter"
          data-testid="filter-tag"
          value={filters.tag ?? ''}
          onChange={(event) => setFilters({ tag: event.target.value || null })}
        >
          <option value="">{t('highlights.allTags')}</option>
          {tags.map(({ tag }) => (
            <option key={tag} value={tag}>
              {tag}
            </option>
          ))}
        </select>
        <label htmlFor={sortSelect} className="visually-hidden">
          {t('notes.sortLabel')}
        </label>
        <select
          id={sortSelect}
          className="highlight-tag-filter"
          data-testid="highlight-sort"
          value={filters.sort}
          onChange={(event) => setFilters({ sort: event.target.value as HighlightSort })}
        >
          {SORTS.map(([key, value]) => (
            <option key={value} value={value}>
              {t(`notes.sort.${key}`)}
            </option>
          ))}
        </select>
        {filters.noteId && (
          <span className="tag-chip highlight-note-filter" data-testid="filter-note">
            {noteTitle ?? t('highlights.oneNote')}
            <button
              type="button"
              className="tag-chip-remove"
              aria-label={t('common.clear')}
              onClick={() => setFilters({ noteId: null })}
            >
              ×
            </button>
          </span>
        )}
      </div>
      {list.isPending ? (
        <p className="muted">{t('app.loading')}</p>
      ) : items.length === 0 ? (
        <div className="empty-state" data-testid="highlight-list-empty">
          <h2>{t('highlights.emptyTitle')}</h2>
          <p>{t('highlights.emptyBody')}</p>
        </div>
      ) : (
        <ol className="highlight-list" data-testid="highlight-list">
          {items.map((item) => (
            <HighlightItem key={item.id} item={item} />
          ))}
        </ol>
      )}
      <div ref={sentinel} />
      {hasNextPage && (
        <button
          type="button"
          className="button highlight-list-more"
          disabled={isFetchingNextPage}
          onClick={() => void fetchNextPage()}
        >
          {t('notes.loadMore')}
        </button>
      )}
    </section>
  );
}
