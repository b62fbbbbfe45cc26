import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { legacyHashPath } from '../src/deep-link.ts';
import { App } from './App.tsx';
import { initPalette } from './features/highlights/highlight-palette.ts';
import { followAccountLanguage } from './features/i18n/account-language.ts';
import { initTheme } from './features/theme/theme-store.ts';
import { i18n, initI18n } from './i18n.ts';
import { escapeFrames } from './lib/frame-guard.ts';
import { linkManifest } from './lib/manifest.ts';
import { preload } from './preload.ts';
import { SERVER_LOCATION } from './ssr/server-location.ts';
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
  const app = <App queryClient={queryClient} trpcClient={trpcClient} />;
  // The server rendered the first screen (server/first-screen.ts): taken over as it is when the
  // app reads in the language it was rendered in; else drawn afresh.
  const rendered = root.dataset.ssrLang;
  if (rendered && rendered === i18n.language) {
    hydrateRoot(
      root,
      <StrictMode>
        <Router {...SERVER_LOCATION}>{app}</Router>
      </StrictMode>,
    );
    return;
  }
  root.replaceChildren();
  createRoot(root).render(<StrictMode>{app}</StrictMode>);
}

void start();
