import type { QueryClient } from '@tanstack/react-query';
import { parseDeepLink } from '../../../src/deep-link.ts';
import { withTranslations } from '../../i18n.ts';
import { preloadable } from '../../lib/preloadable.tsx';
import type { useTRPC } from '../../trpc.ts';

/**
 * The reader's code (and its words) is split off the first load; on the reader's
 * address it is loaded up front.
 */
export const LazyReader = preloadable(() =>
  withTranslations(import('./Reader.tsx'), 'reader').then((m) => m.Reader),
);

/**
 * Before React renders, for the reader's address (`/?pi=…`): the note and its highlights are
 * requested at once, and the reader's code with them, instead of one after the other once the
 * home page has rendered and loaded the reader. Resolves when the code is in (the first render
 * waits for it, so the reader does not suspend), at once elsewhere.
 */
export function preloadReader(
  queryClient: QueryClient,
  trpc: ReturnType<typeof useTRPC>,
  search: string,
): Promise<unknown> {
  const link = parseDeepLink(search);
  if (link?.kind !== 'note') return Promise.resolve();
  void queryClient.prefetchQuery(trpc.notes.get.queryOptions({ id: link.noteId }));
  void queryClient.prefetchQuery(trpc.highlights.byNote.queryOptions({ id: link.noteId }));
  return LazyReader.preload();
}
