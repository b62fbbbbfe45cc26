import { QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import superjson from 'superjson';
import type { AppRouter } from '../server/trpc/app.router.ts';
import { TRPC_MAX_BATCH_SIZE } from '../src/http-limits.ts';
import { i18n } from './i18n.ts';
import { notify } from './lib/notify.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export function createTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: '/trpc',
        transformer: superjson,
        maxURLLength: 2000,
        maxItems: TRPC_MAX_BATCH_SIZE,
        // Mails (codes, notices) go out in the language the user is reading the app in.
        headers: () => (i18n.language ? { 'x-lang': i18n.language } : {}),
      }),
    ],
  });
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      // Background refetches fail quietly; a first load that fails tells the user.
      onError: (error, query) => {
        if (query.state.data === undefined) notify.error(error);
      },
    }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
      mutations: { onError: (error) => notify.error(error) },
    },
  });
}
