import { useQueryClient } from '@tanstack/react-query';
import type { Me } from '../../../src/schemas/auth.ts';
import { useTRPC } from '../../trpc.ts';

/** Account settings that change the user: take the server's answer, or refetch it. */
export function useMeUpdate() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return {
    set: (me: Me) => queryClient.setQueryData(trpc.auth.me.queryKey(), me),
    refetch: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.account.bindings.queryKey() }),
      ]),
  };
}
