import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons/Icon.tsx';
import { LocalTime } from '../../components/LocalTime.tsx';
import { useDebounced } from '../../lib/use-debounced.ts';
import { useTRPC } from '../../trpc.ts';

const PAGE_SIZE = 20;
const SEARCH_DEBOUNCE_MS = 250;

/** Calls `loadMore` when the returned element's target comes near the viewport. */
function useLoadWhenNear(enabled: boolean, loadMore: () => void) {
  const ref = useRef<HTMLButtonElement>(null);
  const latest = useRef(loadMore);
  latest.current = loadMore;
  useEffect(() => {
    const target = ref.current;
    if (!enabled || !target) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) latest.current();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [enabled]);
  return ref;
}

/** The days with notes, newest first, with a search over all daily notes. */
export function DailyTimeline({
  selected,
  today,
  onSelect,
}: {
  selected: string | undefined;
  today: string | undefined;
  onSelect(date: string): void;
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const searchId = useId();
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim(), SEARCH_DEBOUNCE_MS);
  const list = useInfiniteQuery(
    trpc.daily.list.infiniteQueryOptions(q ? { limit: PAGE_SIZE, q } : { limit: PAGE_SIZE }, {
      getNextPageParam: (last) => last.nextCursor,
    }),
  );
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const canLoadMore = hasNextPage && !isFetchingNextPage;
  const moreRef = useLoadWhenNear(canLoadMore, () => void fetchNextPage());
  const days = list.data?.pages.flatMap((chunk) => chunk.items) ?? [];

  return (
    <section className="daily-timeline" aria-labelledby={`${searchId}-title`} data-testid="daily-timeline">
      <h2 id={`${searchId}-title`} className="daily-section-title">
        {t('daily.timeline')}
      </h2>
      <div className="daily-search">
        <Icon name="search" />
        <label htmlFor={searchId} className="visually-hidden">
          {t('daily.searchLabel')}
        </label>
        <input
          id={searchId}
          type="search"
          value={query}
          placeholder={t('daily.searchLabel')}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="daily-search"
        />
      </div>
      {list.isPending ? (
        <p className="muted">{t('app.loading')}</p>
      ) : days.length === 0 ? (
        <p className="muted daily-timeline-empty">{q ? t('daily.noResults') : t('daily.noDays')}</p>
      ) : (
        <ol className="daily-days">
          {days.map((day) => (
            <li key={day.date}>
              <button
                type="button"
                className="daily-day"
                aria-current={day.date === selected ? 'date' : undefined}
                onClick={() => onSelect(day.date)}
                data-testid="daily-day"
                data-date={day.date}
              >
                {day.date === today ? (
                  <span className="daily-day-date">{t('common.today')}</span>
                ) : (
                  <LocalTime className="daily-day-date" day={day.date} style="medium" />
                )}
                <span className="daily-day-excerpt" dir="auto">
                  {day.excerpt}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {hasNextPage && (
        <button
          ref={moreRef}
          type="button"
          className="button button-small daily-more"
          disabled={!canLoadMore}
          onClick={() => void fetchNextPage()}
        >
          {isFetchingNextPage ? t('app.loading') : t('daily.loadMore')}
        </button>
      )}
    </section>
  );
}
