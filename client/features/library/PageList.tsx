import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons/Icon.tsx';
import { useTRPC } from '../../trpc.ts';
import { CLIP_POLL_MS, isClipping } from '../clip/clip-status.ts';
import { PageListItem } from './PageListItem.tsx';
import { PAGE_LIST_INPUT } from './page-cache.ts';

/** The user's pages, newest first. Polls while any listed page is still being clipped. */
function usePageList() {
  const trpc = useTRPC();
  return useInfiniteQuery(
    trpc.notes.pages.infiniteQueryOptions(PAGE_LIST_INPUT, {
      getNextPageParam: (last) => last.nextCursor,
      refetchInterval: (query) =>
        query.state.data?.pages.some((chunk) => chunk.items.some((item) => isClipping(item.clipStatus)))
          ? CLIP_POLL_MS
          : false,
    }),
  );
}

/** Loads the next chunk when `ref`'s element comes near the viewport. */
function useLoadMoreWhenNear(enabled: boolean, loadMore: () => void) {
  const ref = useRef<HTMLButtonElement>(null);
  const latestLoadMore = useRef(loadMore);
  latestLoadMore.current = loadMore;
  useEffect(() => {
    const target = ref.current;
    if (!enabled || !target) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) latestLoadMore.current();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [enabled]);
  return ref;
}

/** A simple list of saved pages (the library will replace it with a virtualised one). */
export function PageList({ onOpen }: { onOpen(pageId: string): void }) {
  const { t } = useTranslation();
  const list = usePageList();
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const canLoadMore = hasNextPage && !isFetchingNextPage;
  const loadMoreRef = useLoadMoreWhenNear(canLoadMore, () => void fetchNextPage());
  if (list.isPending) return <p className="muted page-list-loading">{t('app.loading')}</p>;
  const items = list.data?.pages.flatMap((chunk) => chunk.items) ?? [];
  if (items.length === 0) {
    return (
      <div className="empty-state">
        <Icon name="inbox" size={40} />
        <h2>{t('home.emptyTitle')}</h2>
        <p>{t('home.emptyBody')}</p>
      </div>
    );
  }
  return (
    <>
      <ul className="page-list" data-testid="page-list" aria-label={t('library.listLabel')}>
        {items.map((page) => (
          <PageListItem key={page.id} page={page} onOpen={onOpen} />
        ))}
      </ul>
      {hasNextPage && (
        <button
          ref={loadMoreRef}
          type="button"
          className="button page-list-more"
          disabled={!canLoadMore}
          onClick={() => void fetchNextPage()}
        >
          {isFetchingNextPage ? t('app.loading') : t('library.loadMore')}
        </button>
      )}
    </>
  );
}
