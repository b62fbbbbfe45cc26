import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { OrderView } from '../../../src/schemas/membership.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';

/** How often an unpaid order is read again while someone is paying it. */
export const ORDER_POLL_MS = 2000;

/** Orders the user was told are paid: two views of one order (the list, the dialog) tell it once. */
const toldPaid = new Set<string>();

/**
 * One order, read again while it waits for its payment. When it turns paid here, the user is
 * told, and what the payment changed (the user's level, the page, the list) is read again.
 */
export function useOrderWatch(id: string | null, initial?: OrderView) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(
    trpc.membership.order.queryOptions(
      { id: id ?? '' },
      {
        enabled: id !== null,
        initialData: initial,
        // The order as given is fresh: the first read again comes after one interval.
        initialDataUpdatedAt: initial ? Date.now() : undefined,
        refetchInterval: (q) => (q.state.data?.state === 'created' ? ORDER_POLL_MS : false),
      },
    ),
  );
  const state = query.data?.state;
  const seen = useRef(state);
  useEffect(() => {
    const before = seen.current;
    seen.current = state;
    if (before !== 'created' || state === 'created' || state === undefined) return;
    void queryClient.invalidateQueries({ queryKey: trpc.membership.pathKey() });
    if (state === 'paid' && id && !toldPaid.has(id)) {
      toldPaid.add(id);
      void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
      notify.success('membership.paidToast');
    }
  }, [id, state, queryClient, trpc]);
  return query;
}
