import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import type { DailyNote } from '../../../src/schemas/daily.ts';
import { useTRPC, useTRPCClient } from '../../trpc.ts';
import { useMe } from '../auth/session.ts';
import { type DailySaver, hasSaver, type SaveFn, type SaverSnapshot, saverFor } from './daily-saver.ts';
import { draftDates } from './draft-store.ts';

const LOADING: SaverSnapshot = { text: '', status: 'loading' };
const noSubscription = () => () => undefined;
const loadingSnapshot = () => LOADING;

/** The save call shared by every saver: the server's merge-aware save, then fresher lists. */
function useSaveFn(): SaveFn {
  const client = useTRPCClient();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    async (input) => {
      const answer = await client.daily.save.mutate(input);
      void queryClient.invalidateQueries({ queryKey: trpc.daily.list.pathKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.daily.get.pathKey() });
      return answer;
    },
    [client, trpc, queryClient],
  );
}

/**
 * The editor state of one day's note: its text, the autosave status and `edit`. `day` is the
 * server's copy (from daily.get); the saver adopts it unless the user has unsent edits.
 */
export function useDailyNote(date: string | undefined, day: Pick<DailyNote, 'text' | 'version'> | undefined) {
  const { data: me } = useMe();
  const save = useSaveFn();
  const accountId = me?.accountId;
  const saver: DailySaver | null = useMemo(
    () => (accountId && date ? saverFor(accountId, date, save) : null),
    [accountId, date, save],
  );
  useEffect(() => {
    if (saver && day) saver.receive(day);
  }, [saver, day]);
  // Hidden (kept alive) or switched to another day: send what is pending right away.
  useEffect(() => () => saver?.flushNow(), [saver]);
  const snapshot = useSyncExternalStore(
    saver?.subscribe ?? noSubscription,
    saver?.getSnapshot ?? loadingSnapshot,
  );
  const edit = useCallback((text: string) => saver?.edit(text), [saver]);
  const flushNow = useCallback(() => saver?.flushNow(), [saver]);
  return { ...snapshot, edit, flushNow };
}

/** Unsent drafts of days not open in the editor (left by an earlier visit) are sent on load too. */
export function useSendStrayDrafts(): void {
  const { data: me } = useMe();
  const client = useTRPCClient();
  const save = useSaveFn();
  const accountId = me?.accountId;
  useEffect(() => {
    if (!accountId) return;
    for (const date of draftDates(accountId)) {
      if (hasSaver(accountId, date)) continue;
      const saver = saverFor(accountId, date, save);
      client.daily.get
        .query({ date })
        .then((day) => saver.receive(day))
        .catch(() => undefined); // Stays in storage; the next visit tries again.
    }
  }, [accountId, client, save]);
}
