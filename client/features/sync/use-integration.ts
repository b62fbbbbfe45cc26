import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type IntegrationApp, type IntegrationView, isPushApp } from '../../../src/schemas/sync.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';

/** How often an open page reads a push tool's integration again: its runs happen in the worker, unseen. */
const PUSH_STATUS_POLL_MS = 5000;

/** The integration a page shows; a push tool's is read again while the page is open, so a run's result appears. */
export function useIntegration(app: IntegrationApp) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.sync.integration.queryOptions({ app }),
    refetchInterval: isPushApp(app) ? PUSH_STATUS_POLL_MS : false,
  });
}

/** The push tools whose last run failed: the settings navigation marks them. */
export function useFailedPushApps(signedIn: boolean): ReadonlySet<IntegrationApp> {
  const trpc = useTRPC();
  const { data } = useQuery({
    ...trpc.sync.integrations.queryOptions(),
    enabled: signedIn,
    refetchInterval: PUSH_STATUS_POLL_MS,
  });
  return new Set((data ?? []).filter((i) => isPushApp(i.app) && i.lastResult === 'error').map((i) => i.app));
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
