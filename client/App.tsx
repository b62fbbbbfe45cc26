import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from './i18n.ts';
import { onToastOutletWanted, toastOutletWanted } from './lib/notify.ts';
import { AppRoutes } from './routes.tsx';
import { TRPCProvider, type TrpcClient } from './trpc.ts';

/** The server renders no toasts (and the client's first render, which hydrates it, none either). */
const noToastOutlet = () => false;

const Toasts = lazy(() => import('./features/shell/Toasts.tsx'));

/** `translations`: the server's render (client/ssr) passes its own per language; the client has one. */
export function App({
  queryClient,
  trpcClient,
  translations = i18n,
}: {
  queryClient: QueryClient;
  trpcClient: TrpcClient;
  translations?: I18n;
}) {
  const toasts = useSyncExternalStore(onToastOutletWanted, toastOutletWanted, noToastOutlet);
  return (
    <I18nextProvider i18n={translations}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <AppRoutes />
          {toasts && (
            <Suspense fallback={null}>
              <Toasts />
            </Suspense>
          )}
        </TRPCProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
