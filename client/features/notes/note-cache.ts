import { type InfiniteData, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { SortOrder } from '../../../src/enums.ts';
import type { NoteList, NoteListInput, NoteSummary } from '../../../src/schemas/notes.ts';
import { useTRPC } from '../../trpc.ts';

/** The cached shape of an infinite note list. */
export type ListData = InfiniteData<NoteList, string | null | undefined>;

/** A newly saved note belongs at the top of an unfiltered, newest-first All list. */
function takesNewNotes(input: Partial<NoteListInput> | undefined): boolean {
  if (!input) return false;
  return (
    (input.nav ?? 'all') === 'all' &&
    !input.q &&
    !input.tag &&
    !input.folderId &&
    (input.sort ?? SortOrder.newestFirst) === SortOrder.newestFirst
  );
}

/** Every cached chunk of a list with its items passed through `edit`. */
export function editListItems(data: ListData, edit: (items: NoteSummary[]) => NoteSummary[]): ListData {
  return { ...data, pages: data.pages.map((chunk) => ({ ...chunk, items: edit(chunk.items) })) };
}

/** `note` in place of the listed note with its id; put first when `prepend` and not listed. */
function withNote(data: ListData | undefined, note: NoteSummary, prepend: boolean): ListData | undefined {
  if (!data) return data;
  const listed = data.pages.some((chunk) => chunk.items.some((item) => item.id === note.id));
  if (listed) return editListItems(data, (items) => items.map((item) => (item.id === note.id ? note : item)));
  if (!prepend) return data;
  return {
    ...data,
    pages: data.pages.map((chunk, index) =>
      index === 0 ? { ...chunk, items: [note, ...chunk.items] } : chunk,
    ),
  };
}

/** Writes a note the server just returned into the cached lists, so the list shows it at once. */
export function useNoteCache() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const listKey = trpc.notes.list.pathKey();
    const write = (note: NoteSummary, prepend: boolean) => {
      for (const [key] of queryClient.getQueriesData<ListData>({ queryKey: listKey })) {
        const input = (key[1] as { input?: Partial<NoteListInput> } | undefined)?.input;
        queryClient.setQueryData<ListData>(key, (data) =>
          withNote(data, note, prepend && takesNewNotes(input)),
        );
      }
    };
    return {
      /** A note just saved: first in the All list unless it is already there. */
      saved(note: NoteSummary) {
        write(note, true);
        void queryClient.invalidateQueries({ queryKey: trpc.notes.counts.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.notes.get.queryKey({ id: note.id }) });
      },
      /** A note whose state changed: replaced where it is listed. */
      changed(note: NoteSummary) {
        write(note, false);
      },
    };
  }, [trpc, queryClient]);
}
