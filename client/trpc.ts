import { QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpBatchStreamLink, splitLink } from '@trpc/client';
import { createTRPCContext, createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import superjson from 'superjson';
import type { AppRouter } from '../server/trpc/app.router.ts';
import { TRPC_MAX_BATCH_SIZE } from '../src/http-limits.ts';
import { appLanguage } from './i18n.ts';
import { notify } from './lib/notify.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export type TrpcClient = ReturnType<typeof createTrpcClient>;

export function createTrpcClient() {
  const batch = {
    url: '/trpc',
    transformer: superjson,
    maxURLLength: 2000,
    maxItems: TRPC_MAX_BATCH_SIZE,
    // Mails (codes, notices) go out in the language the user is reading the app in.
    headers: (): Record<string, string> => {
      const language = appLanguage();
      return language ? { 'x-lang': language } : {};
    },
  };
  return createTRPCClient<AppRouter>({
    links: [
      // Queries stream: each answer arrives as its procedure finishes, so a slow one (the
      // counts) never holds back the rest of its batch (the list). Mutations set cookies,
      // which a streamed response cannot once its head is out, so they go as one response.
      splitLink({
        condition: (op) => op.type === 'query',
        true: httpBatchStreamLink(batch),
        false: httpBatchLink(batch),
      }),
    ],
  });
}

/** Query options outside React (the boot's prefetches), keyed exactly like `useTRPC()`'s. */
export function trpcOptions(trpcClient: TrpcClient, queryClient: QueryClient) {
  return createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
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
