import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from './i18n.ts';
import { onToastOutletWanted, toastOutletWanted } from './lib/notify.ts';
import { AppRoutes } from './routes.tsx';
import { TRPCProvider, type TrpcClient } from './trpc.ts';

const Toasts = lazy(() => import('./features/shell/Toasts.tsx'));

export function App({ queryClient, trpcClient }: { queryClient: QueryClient; trpcClient: TrpcClient }) {
  const toasts = useSyncExternalStore(onToastOutletWanted, toastOutletWanted);
  return (
    <I18nextProvider i18n={i18n}>
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
