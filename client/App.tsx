import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Toaster } from 'sonner';
import { TOAST } from '../src/constants.ts';
import { useTheme } from './features/theme/theme-store.ts';
import { i18n } from './i18n.ts';
import { AppRoutes } from './routes.tsx';
import { createQueryClient, createTrpcClient, TRPCProvider } from './trpc.ts';

function Toasts() {
  const { shown } = useTheme();
  return (
    <Toaster
      theme={shown}
      position="top-center"
      offset={TOAST.offset}
      duration={TOAST.defaultMs}
      dir={document.documentElement.dir === 'rtl' ? 'rtl' : 'ltr'}
    />
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <AppRoutes />
          <Toasts />
        </TRPCProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
