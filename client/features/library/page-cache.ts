import { type InfiniteData, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { PageSummary } from '../../../src/schemas/notes.ts';
import { useTRPC } from '../../trpc.ts';

/** The home list's request: newest first, a page of this many at a time. */
export const PAGE_LIST_INPUT = { limit: 30 } as const;

interface PageListChunk {
  items: PageSummary[];
  nextCursor: string | null;
}

/** `page` in place of the listed page with its id; put first when `prepend` and not listed. */
function withPage(
  data: InfiniteData<PageListChunk, string | null> | undefined,
  page: PageSummary,
  prepend: boolean,
) {
  if (!data) return data;
  const listed = data.pages.some((chunk) => chunk.items.some((item) => item.id === page.id));
  if (!listed && !prepend) return data;
  const pages = listed
    ? data.pages.map((chunk) => ({
        ...chunk,
        items: chunk.items.map((item) => (item.id === page.id ? page : item)),
      }))
    : data.pages.map((chunk, index) => (index === 0 ? { ...chunk, items: [page, ...chunk.items] } : chunk));
  return { ...data, pages };
}

/** Writes a page the server just returned into the cached list, so the list shows it at once. */
export function usePageCache() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const listKey = trpc.notes.pages.infiniteQueryKey(PAGE_LIST_INPUT);
    return {
      /** A page just saved: first in the list unless it is already there. */
      saved(page: PageSummary) {
        queryClient.setQueryData(listKey, (data) => withPage(data, page, true));
        void queryClient.invalidateQueries({ queryKey: trpc.notes.page.queryKey({ id: page.id }) });
      },
      /** A page whose state changed: replaced where it is listed. */
      changed(page: PageSummary) {
        queryClient.setQueryData(listKey, (data) => withPage(data, page, false));
      },
    };
  }, [trpc, queryClient]);
}
