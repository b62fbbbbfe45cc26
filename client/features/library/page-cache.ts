import { type InfiniteData, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { SortOrder } from '../../../src/enums.ts';
import type { LibraryListInput } from '../../../src/schemas/library.ts';
import type { PageSummary } from '../../../src/schemas/notes.ts';
import { useTRPC } from '../../trpc.ts';

interface ListChunk {
  items: PageSummary[];
  nextCursor: string | null;
}
/** The cached shape of an infinite library list. */
export type ListData = InfiniteData<ListChunk, string | null | undefined>;

/** A newly saved page belongs at the top of an unfiltered, newest-first All list. */
function takesNewPages(input: Partial<LibraryListInput> | undefined): boolean {
  if (!input) return false;
  return (
    (input.nav ?? 'all') === 'all' &&
    !input.q &&
    !input.tag &&
    !input.folderId &&
    (input.sort ?? SortOrder.newestFirst) === SortOrder.newestFirst
  );
}

/** `page` in place of the listed page with its id; put first when `prepend` and not listed. */
function withPage(data: ListData | undefined, page: PageSummary, prepend: boolean): ListData | undefined {
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

/** Writes a page the server just returned into the cached lists, so the list shows it at once. */
export function usePageCache() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const listKey = trpc.library.list.pathKey();
    const write = (page: PageSummary, prepend: boolean) => {
      for (const [key] of queryClient.getQueriesData<ListData>({ queryKey: listKey })) {
        const input = (key[1] as { input?: Partial<LibraryListInput> } | undefined)?.input;
        queryClient.setQueryData<ListData>(key, (data) =>
          withPage(data, page, prepend && takesNewPages(input)),
        );
      }
    };
    return {
      /** A page just saved: first in the All list unless it is already there. */
      saved(page: PageSummary) {
        write(page, true);
        void queryClient.invalidateQueries({ queryKey: trpc.library.counts.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.notes.page.queryKey({ id: page.id }) });
      },
      /** A page whose state changed: replaced where it is listed. */
      changed(page: PageSummary) {
        write(page, false);
      },
    };
  }, [trpc, queryClient]);
}
