import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Me } from '../../../src/schemas/auth.ts';
import { useTRPC } from '../../trpc.ts';

/** The signed-in user, `null` when signed out, `undefined` while the first answer is on its way. */
export function useMe() {
  const trpc = useTRPC();
  return useQuery(trpc.auth.me.queryOptions());
}

/** After any sign-in: remember who is signed in and refetch everything that depends on it. */
export function useSignedIn(): (me: Me) => void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    (me: Me) => {
      const meKey = trpc.auth.me.queryKey();
      queryClient.setQueryData(meKey, me);
      void queryClient.invalidateQueries({ predicate: (q) => q.queryHash !== hashKey(meKey) });
    },
    [trpc, queryClient],
  );
}

/** After signing out or deleting the account: forget the user and every query that was theirs. */
export function useSignedOut(): () => void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => {
    const meKey = trpc.auth.me.queryKey();
    queryClient.setQueryData(meKey, null);
    queryClient.removeQueries({ predicate: (q) => q.queryHash !== hashKey(meKey) });
  }, [trpc, queryClient]);
}

/** Where to go after signing in: the `next` parameter when it is a path on this site, else home. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/** The sign-in page that comes back to `path` afterwards. */
export function loginPathFor(path: string): string {
  return `/login?next=${encodeURIComponent(path)}`;
}
