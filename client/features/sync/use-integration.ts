import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IntegrationApp, IntegrationView } from '../../../src/schemas/sync.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';

/** The integration a page shows. */
export function useIntegration(app: IntegrationApp) {
  const trpc = useTRPC();
  return useQuery(trpc.sync.integration.queryOptions({ app }));
}

/** Takes the server's new view of an integration after a change, and refreshes what depends on it. */
export function useIntegrationUpdate(app: IntegrationApp) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return {
    set(view: IntegrationView) {
      queryClient.setQueryData(trpc.sync.integration.queryKey({ app }), view);
      void queryClient.invalidateQueries({ queryKey: trpc.sync.integrations.queryKey() });
    },
    refetch() {
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.sync.integration.queryKey({ app }) }),
        queryClient.invalidateQueries({ queryKey: trpc.sync.integrations.queryKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.sync.tokens.queryKey() }),
      ]);
    },
  };
}

/** The switches of a bound integration: on/off, run once, unbind. Failures are toasts. */
export function useIntegrationActions(app: IntegrationApp) {
  const trpc = useTRPC();
  const update = useIntegrationUpdate(app);
  const onError = (error: unknown) => notify.error(error);
  const setEnabled = useMutation(trpc.sync.setEnabled.mutationOptions({ onSuccess: update.set, onError }));
  const runOnce = useMutation(
    trpc.sync.runOnce.mutationOptions({
      onSuccess: () => {
        notify.info('sync.runOnceDone');
        void update.refetch();
      },
      onError,
    }),
  );
  const unbind = useMutation(
    trpc.sync.unbind.mutationOptions({
      onSuccess: (view) => {
        update.set(view);
        void update.refetch();
        notify.success('account.unbindDone');
      },
      onError,
    }),
  );
  return { setEnabled, runOnce, unbind };
}
