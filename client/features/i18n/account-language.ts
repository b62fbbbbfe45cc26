import { hashKey, type QueryClient } from '@tanstack/react-query';
import { isLanguage } from '../../../src/constants.ts';
import type { Me } from '../../../src/schemas/auth.ts';
import { appLanguage, changeLanguage } from '../../i18n.ts';
import { type TrpcClient, trpcOptions } from '../../trpc.ts';

/**
 * Signed in, the app reads in the account's language, as the server's messages and mail do: a
 * new browser adopts it when the user signs in, and a page loaded with a session when the user
 * chose another language elsewhere. Follows `auth.me` however it arrives (the page's boot data,
 * a sign-in, a refetch). Signed out, the language stays as it was picked at boot. Returns what
 * the first render waits for: the account's language, once its translations are in.
 */
export function followAccountLanguage(
  queryClient: QueryClient,
  trpcClient: TrpcClient,
  i18nReady: Promise<unknown>,
): () => Promise<void> {
  const meHash = hashKey(trpcOptions(trpcClient, queryClient).auth.me.queryKey());
  let adopting: Promise<void> = Promise.resolve();
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryHash !== meHash) return;
    const language = (event.query.state.data as Me | null | undefined)?.language;
    if (!language || !isLanguage(language) || language === appLanguage()) return;
    adopting = i18nReady.then(() => changeLanguage(language));
  });
  return () => adopting;
}
