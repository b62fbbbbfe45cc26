import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from './i18n.ts';
import { AppRoutes } from './routes.tsx';
import { createQueryClient, createTrpcClient, TRPCProvider } from './trpc.ts';

const Toasts = lazy(() => import('./components/Toasts.tsx'));

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <AppRoutes />
          <Suspense fallback={null}>
            <Toasts />
          </Suspense>
        </TRPCProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
