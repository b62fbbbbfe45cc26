import type { QueryClient } from '@tanstack/react-query';
import superjson from 'superjson';
import { BOOT_DATA_ID, type BootData } from '../src/boot-data.ts';
import { preloadReader } from './features/reader/preload-reader.ts';
import { preloadHomeList } from './pages/HomePage.tsx';
import { type TrpcClient, trpcOptions } from './trpc.ts';

/** What the server wrote into index.html; undefined where it did not (Vite's dev server). */
function readBootData(): BootData | undefined {
  const json = document.getElementById(BOOT_DATA_ID)?.textContent;
  if (!json) return undefined;
  try {
    return superjson.parse<BootData>(json);
  } catch {
    return undefined;
  }
}

/**
 * Before React renders: the signed-in user and the home list's first chunk from the page itself,
 * or else the route's first data requested at once rather than after `auth.me` and the first
 * render. Resolves when the route's own code is in, so the first render need not suspend.
 */
export function preload(
  queryClient: QueryClient,
  trpcClient: TrpcClient,
  location: Location,
): Promise<unknown> {
  const boot = readBootData();
  if (!boot) return Promise.resolve(); // the pages ask for the user themselves
  const trpc = trpcOptions(trpcClient, queryClient);
  queryClient.setQueryData(trpc.auth.me.queryKey(), boot.me);
  if (boot.settings) queryClient.setQueryData(trpc.settings.get.queryKey(), boot.settings);
  if (boot.me && location.pathname === '/') {
    preloadHomeList(queryClient, trpc, location.search, boot.homeList);
    return preloadReader(queryClient, trpc, location.search);
  }
  return Promise.resolve();
}
