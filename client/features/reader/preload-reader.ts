import type { QueryClient } from '@tanstack/react-query';
import { parseDeepLink } from '../../../src/deep-link.ts';
import type { useTRPC } from '../../trpc.ts';

/**
 * Before React renders, for the reader's address (`/?pi=…`): the note and its highlights are
 * requested at once, and the reader's code with them, instead of one after the other once the
 * home page has rendered and loaded the reader.
 */
export function preloadReader(
  queryClient: QueryClient,
  trpc: ReturnType<typeof useTRPC>,
  search: string,
): void {
  const link = parseDeepLink(search);
  if (link?.kind !== 'note') return;
  void queryClient.prefetchQuery(trpc.notes.get.queryOptions({ id: link.noteId }));
  void queryClient.prefetchQuery(trpc.highlights.byNote.queryOptions({ id: link.noteId }));
  void import('./Reader.tsx');
}
