import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Flow } from '../../../src/enums.ts';
import type { NoteSummary } from '../../../src/schemas/notes.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { editListItems, type ListData } from './note-cache.ts';

/**
 * Optimistic edits of every cached note list, then a refetch of lists, counts, tags and
 * folders once the server has answered.
 */
export function useNoteListEdits() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const listKey = trpc.notes.list.pathKey();
    const editLists = (edit: (items: NoteSummary[]) => NoteSummary[]) => {
      void queryClient.cancelQueries({ queryKey: listKey });
      queryClient.setQueriesData<ListData>(
        { queryKey: listKey },
        (data) => data && editListItems(data, edit),
      );
    };
    return {
      /** Each listed note among `ids` changed as `change` says. */
      patch(ids: readonly string[], change: (note: NoteSummary) => NoteSummary) {
        const set = new Set(ids);
        editLists((items) => items.map((p) => (set.has(p.id) ? change(p) : p)));
      },
      /** The notes left every list they were in (trashed, restored, deleted). */
      remove(ids: readonly string[]) {
        const set = new Set(ids);
        editLists((items) => items.filter((p) => !set.has(p.id)));
      },
      /** Everything the notes list shows, fetched again. */
      refresh() {
        for (const key of [
          listKey,
          trpc.notes.counts.pathKey(),
          trpc.notes.tags.pathKey(),
          trpc.folders.list.pathKey(),
        ]) {
          void queryClient.invalidateQueries({ queryKey: key });
        }
      },
    };
  }, [trpc, queryClient]);
}

/**
 * Every change to notes from the list: state (later, star, archive), trash, put back, delete
 * for good, tags and folders. The list changes at once; lists and counts refetch afterwards.
 */
export function useNoteActions() {
  const trpc = useTRPC();
  const cache = useNoteListEdits();
  const settle = {
    onError: (error: unknown) => notify.error(error),
    onSettled: () => cache.refresh(),
  };
  const setFlow = useMutation(
    trpc.notes.setFlow.mutationOptions({
      onMutate: ({ ids, flow }) => cache.patch(ids, (p) => ({ ...p, flow })),
      ...settle,
    }),
  );
  const removing = { onMutate: ({ ids }: { ids: string[] }) => cache.remove(ids), ...settle };
  const trash = useMutation(trpc.notes.trash.mutationOptions(removing));
  const restore = useMutation(trpc.notes.restore.mutationOptions(removing));
  const deleteForever = useMutation(trpc.notes.deleteForever.mutationOptions(removing));
  const addTag = useMutation(
    trpc.notes.addTag.mutationOptions({
      onMutate: ({ ids, tag }) =>
        cache.patch(ids, (p) => (p.tags.includes(tag) ? p : { ...p, tags: [...p.tags, tag] })),
      ...settle,
    }),
  );
  const removeTag = useMutation(
    trpc.notes.removeTag.mutationOptions({
      onMutate: ({ ids, tag }) => cache.patch(ids, (p) => ({ ...p, tags: p.tags.filter((t) => t !== tag) })),
      ...settle,
    }),
  );
  const moveToFolder = useMutation(trpc.notes.moveToFolder.mutationOptions(settle));
  const { mutate: flowMutate } = setFlow;
  return useMemo(
    () => ({
      setFlow: (ids: string[], flow: Flow) => flowMutate({ ids, flow }),
      /** Later, Star and Archive toggle: choosing the state a note is in puts it back in the inbox. */
      toggleFlow: (ids: string[], current: number, flow: Flow) =>
        flowMutate({ ids, flow: current === flow ? Flow.inbox : flow }),
      trash: (ids: string[]) => trash.mutate({ ids }),
      restore: (ids: string[]) => restore.mutate({ ids }),
      deleteForever: (ids: string[]) => deleteForever.mutate({ ids }),
      addTag: (ids: string[], tag: string) => addTag.mutate({ ids, tag }),
      removeTag: (ids: string[], tag: string) => removeTag.mutate({ ids, tag }),
      moveToFolder: (ids: string[], folderId: string | null) => moveToFolder.mutate({ ids, folderId }),
    }),
    [
      flowMutate,
      trash.mutate,
      restore.mutate,
      deleteForever.mutate,
      addTag.mutate,
      removeTag.mutate,
      moveToFolder.mutate,
    ],
  );
}

export type NoteActions = ReturnType<typeof useNoteActions>;

/**
 * Mounts the actions and hands them up. Loaded lazily by the list, so mutations and their cache
 * handling stay out of the first paint.
 */
export function NoteActionsHost({ onReady }: { onReady(actions: NoteActions): void }) {
  const actions = useNoteActions();
  useEffect(() => onReady(actions), [actions, onReady]);
  return null;
}
