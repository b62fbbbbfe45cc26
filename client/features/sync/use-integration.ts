import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IntegrationApp, IntegrationView } from '../../../src/schemas/sync.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';

/** The integration a page shows. */
export function useIntegration(app: IntegrationApp) {
  const trpc = useTRPC();
  return useQuery(trpc.sync.integration.queryOptions({ app }));
}

/** Takes the server's new view of an integration after a change, or reads it again. */
export function useIntegrationUpdate(app: IntegrationApp) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return {
    set(view: IntegrationView) {
      queryClient.setQueryData(trpc.sync.integration.queryKey({ app }), view);
    },
    refetch() {
      return queryClient.invalidateQueries({ queryKey: trpc.sync.integration.queryKey({ app }) });
    },
  };
}

const onError = (error: unknown) => notify.error(error);

/** Turns a bound integration on or off. */
export function useSetEnabled(app: IntegrationApp) {
  const trpc = useTRPC();
  const update = useIntegrationUpdate(app);
  return useMutation(trpc.sync.setEnabled.mutationOptions({ onSuccess: update.set, onError }));
}

/** "Run once": everything is sent again on the next sync. */
export function useRunOnce(app: IntegrationApp) {
  const trpc = useTRPC();
  const update = useIntegrationUpdate(app);
  return useMutation(
    trpc.sync.runOnce.mutationOptions({
      onSuccess: () => {
        notify.info('sync.runOnceDone');
        void update.refetch();
      },
      onError,
    }),
  );
}

/** Unbinds the integration (its sync tokens are revoked with it). */
export function useUnbind(app: IntegrationApp) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useIntegrationUpdate(app);
  return useMutation(
    trpc.sync.unbind.mutationOptions({
      onSuccess: (view) => {
        update.set(view);
        void queryClient.invalidateQueries({ queryKey: trpc.sync.tokens.queryKey() });
        notify.success('account.unbindDone');
      },
      onError,
    }),
  );
}
