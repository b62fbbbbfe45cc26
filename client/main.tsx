import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { legacyHashPath } from '../src/deep-link.ts';
import { App } from './App.tsx';
import { initPalette } from './features/highlights/highlight-palette.ts';
import { followAccountLanguage } from './features/i18n/account-language.ts';
import { initTheme } from './features/theme/theme-store.ts';
import { initI18n } from './i18n.ts';
import { escapeFrames } from './lib/frame-guard.ts';
import { linkManifest } from './lib/manifest.ts';
import { preload } from './preload.ts';
import { createQueryClient, createTrpcClient } from './trpc.ts';
import './styles/app.css';

/** The entry is async (vite.config.ts): the page, with its data, may still be arriving. */
function pageParsed(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) =>
    document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }),
  );
}

async function start(): Promise<void> {
  if (!escapeFrames()) return;
  const legacy = legacyHashPath(window.location.hash);
  if (legacy) window.history.replaceState(null, '', legacy);
  initTheme();
  initPalette();
  linkManifest(__BUILD_VERSION__);
  const i18nReady = initI18n();
  // The first data, from the page or asked for now, while the translations load.
  const queryClient = createQueryClient();
  const trpcClient = createTrpcClient();
  const accountLanguage = followAccountLanguage(queryClient, trpcClient, i18nReady);
  await pageParsed();
  const routeCode = preload(queryClient, trpcClient, window.location);
  await Promise.all([i18nReady, routeCode.catch(() => undefined)]);
  await accountLanguage();
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} trpcClient={trpcClient} />
    </StrictMode>,
  );
}

void start();
