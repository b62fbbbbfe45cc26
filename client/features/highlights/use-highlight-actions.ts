import { useQueryClient } from '@tanstack/react-query';
import type { inferRouterInputs } from '@trpc/server';
import { useMemo } from 'react';
import type { AppRouter } from '../../../server/trpc/app.router.ts';
import type { HighlightSelectors } from '../../../src/anchoring/types.ts';
import { TOAST } from '../../../src/constants.ts';
import { CoreType, HighlightStyle } from '../../../src/enums.ts';
import { newId } from '../../../src/rules/id.ts';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import { i18n } from '../../i18n.ts';
import { notify, toastWith } from '../../lib/notify.ts';
import { useTRPC, useTRPCClient } from '../../trpc.ts';

type Inputs = inferRouterInputs<AppRouter>['highlights'];
export type NewHighlight = Omit<Inputs['create'], 'noteId' | 'id'> & { id?: string };
export type HighlightPatch = Omit<Inputs['update'], 'id'>;

/** The highlight as the server will answer, made up front for the optimistic update. */
function provisional(id: string, noteId: string, input: NewHighlight, start: number | null): Highlight {
  const now = Date.now();
  const annotation = input.annotation ? { id: `${id}-a`, message: input.annotation, createdAt: now } : null;
  return {
    id,
    noteId,
    coreType: input.coreType,
    text: input.coreType === CoreType.highlight ? (input.selectors?.quote.exact ?? '') : (input.text ?? ''),
    slotId: input.slotId ?? 1,
    style: input.style ?? HighlightStyle.background,
    imageUrl: input.imageUrl ?? null,
    selectors: input.selectors ?? null,
    positionStart: start,
    detached: false,
    annotation,
    tags: input.tags ?? [],
    hasLink: false,
    createdAt: now,
    updatedAt: now,
  };
}

/** What re-creates a deleted highlight exactly (same id, colour, style, anchor, annotation, tags). */
function recreationOf(h: Highlight): NewHighlight {
  return {
    id: h.id,
    coreType: h.coreType as NewHighlight['coreType'],
    text: h.text,
    slotId: h.slotId,
    style: h.style,
    imageUrl: h.imageUrl,
    selectors: h.selectors,
    annotation: h.annotation?.message ?? null,
    tags: h.tags,
  };
}

/**
 * Create, update and delete a note's highlights with optimistic changes to its byNote list; the
 * list of all highlights refreshes afterwards. Delete offers Undo, which re-creates the same highlight.
 */
export function useHighlightActions(noteId: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  return useMemo(() => {
    const key = trpc.highlights.byNote.queryKey({ id: noteId });
    const edit = (change: (list: Highlight[]) => Highlight[]) =>
      queryClient.setQueryData<Highlight[]>(key, (list) => change(list ?? []));
    const settle = () => {
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: trpc.highlights.list.pathKey() });
      // A highlight's tags count its note under them in the Tag section.
      void queryClient.invalidateQueries({ queryKey: trpc.notes.tags.queryKey() });
    };

    async function create(input: NewHighlight, start: number | null = null): Promise<Highlight | null> {
      const id = input.id ?? newId();
      await queryClient.cancelQueries({ queryKey: key });
      edit((list) => [...list.filter((h) => h.id !== id), provisional(id, noteId, input, start)]);
      try {
        const saved = await client.highlights.create.mutate({ ...input, id, noteId });
        edit((list) => list.map((h) => (h.id === id ? saved : h)));
        return saved;
      } catch (error) {
        edit((list) => list.filter((h) => h.id !== id));
        notify.error(error, 'toast.operationFailed');
        return null;
      } finally {
        settle();
      }
    }

    /** Throws the server's error (the caller shows it, e.g. a math error under the editor). */
    async function update(id: string, patch: HighlightPatch): Promise<Highlight> {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Highlight[]>(key);
      const { annotation: _annotation, ...visible } = patch;
      edit((list) => list.map((h) => (h.id === id ? { ...h, ...visible } : h)));
      try {
        const saved = await client.highlights.update.mutate({ ...patch, id });
        edit((list) => list.map((h) => (h.id === id ? saved : h)));
        return saved;
      } catch (error) {
        queryClient.setQueryData(key, before);
        throw error;
      } finally {
        settle();
      }
    }

    /** Puts a highlight (one that could not be placed) on the selected text; false if refused. */
    async function reattach(highlight: Highlight, selectors: HighlightSelectors): Promise<boolean> {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Highlight[]>(key);
      edit((list) =>
        list.map((h) =>
          h.id === highlight.id
            ? {
                ...h,
                selectors,
                text: selectors.quote.exact,
                positionStart: selectors.position.start,
                detached: false,
              }
            : h,
        ),
      );
      try {
        const saved = await client.highlights.reattach.mutate({ id: highlight.id, selectors });
        edit((list) => list.map((h) => (h.id === saved.id ? saved : h)));
        notify.success('highlights.reattached');
        return true;
      } catch (error) {
        queryClient.setQueryData(key, before);
        notify.error(error, 'toast.operationFailed');
        return false;
      } finally {
        settle();
      }
    }

    async function remove(highlight: Highlight): Promise<void> {
      await queryClient.cancelQueries({ queryKey: key });
      edit((list) => list.filter((h) => h.id !== highlight.id));
      try {
        await client.highlights.delete.mutate({ id: highlight.id });
      } catch (error) {
        edit((list) => [...list, highlight]);
        notify.error(error, 'toast.operationFailed');
        return;
      } finally {
        settle();
      }
      toastWith((toast) =>
        toast(i18n.t('highlights.deleted'), {
          duration: TOAST.defaultMs,
          action: {
            label: i18n.t('highlights.undo'),
            onClick: () => void create(recreationOf(highlight), highlight.positionStart),
          },
        }),
      );
    }

    return { create, update, reattach, remove };
  }, [trpc, client, queryClient, noteId]);
}

export type HighlightActions = ReturnType<typeof useHighlightActions>;
