import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTRPC } from '../../trpc.ts';
import { useMe } from '../auth/session.ts';

/** Accounts whose time zone this page load has already reported. */
const reported = new Set<string>();

function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * Tells the server the browser's time zone once per page load while signed in, so "today" for
 * daily notes is the user's own day. Safe to call from several components.
 */
export function useReportTimeZone(): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const { mutate } = useMutation(
    trpc.account.setTimeZone.mutationOptions({
      // "Today" may be another day in the reported zone. A first daily.get still in flight may
      // have been answered in the old zone, and invalidating alone would keep that answer.
      onSuccess: async () => {
        await queryClient.cancelQueries({ queryKey: trpc.daily.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.daily.pathKey() });
      },
      // A failed report is harmless (the server keeps the previous zone); don't toast.
      onError: () => undefined,
    }),
  );
  const accountId = me?.accountId;
  useEffect(() => {
    const timeZone = browserTimeZone();
    if (!accountId || !timeZone || reported.has(accountId)) return;
    reported.add(accountId);
    mutate({ timeZone });
  }, [accountId, mutate]);
}
