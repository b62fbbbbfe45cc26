// The home route's first screen rendered on the server (a Vite SSR build of this entry,
// dist/ssr; server/static.ts imports it). It renders the same <App> the client hydrates, from
// the same boot data, so the first cards are in index.html and the client takes them over.
import { Writable } from 'node:stream';
import i18next, { type i18n as I18n, type ResourceKey } from 'i18next';
import { prerenderToNodeStream } from 'react-dom/static';
import { initReactI18next } from 'react-i18next';
import { Router } from 'wouter';
import type { BootData } from '../../src/boot-data.ts';
import type { Region } from '../../src/enums.ts';
import { App } from '../App.tsx';
import { applyBootData } from '../preload.ts';
import { setServerRegion } from '../region.ts';
import { createQueryClient, createTrpcClient } from '../trpc.ts';
import { SERVER_LOCATION } from './server-location.ts';

const locales = import.meta.glob<{ default: ResourceKey }>('../../src/i18n/locales/*.json', { eager: true });

const instances = new Map<string, I18n>();

/** One i18next per language, made once, with every key of that language and English beside it. */
function translationsFor(language: string): I18n {
  let instance = instances.get(language);
  if (instance) return instance;
  const resourceOf = (lng: string) => locales[`../../src/i18n/locales/${lng}.json`]?.default ?? {};
  instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: false,
    load: 'currentOnly',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
    resources: { en: { translation: resourceOf('en') }, [language]: { translation: resourceOf(language) } },
  });
  instances.set(language, instance);
  return instance;
}

async function streamToString(stream: NodeJS.ReadableStream): Promise<string> {
  let html = '';
  await new Promise<void>((resolve, reject) => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString('utf8');
        done();
      },
    });
    stream.pipe(sink).on('finish', resolve).on('error', reject);
    stream.on('error', reject);
  });
  return html;
}

/** Suspends nowhere once every lazy module the first screen uses has loaded. */
let lazyModulesLoaded = false;

/**
 * The markup of `/` for a signed-in user with the home list in `boot`, in `language`: what the
 * client's first render draws with no stored preferences on a wide screen (client/main.tsx
 * hydrates it). React escapes every string it writes. The first call renders twice: the first
 * loads the lazy modules (a boundary that suspended would need an inline script to complete,
 * which the CSP refuses), the second has them all. A component that fails fails the render,
 * and the client draws the page instead.
 */
export async function renderHome(boot: BootData, language: string, region: Region): Promise<string> {
  setServerRegion(region);
  if (!lazyModulesLoaded) {
    await prerenderOnce(boot, language);
    lazyModulesLoaded = true;
  }
  return prerenderOnce(boot, language);
}

async function prerenderOnce(boot: BootData, language: string): Promise<string> {
  const queryClient = createQueryClient();
  const trpcClient = createTrpcClient();
  applyBootData(queryClient, trpcClient, boot, { pathname: '/', search: '' });
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <Router {...SERVER_LOCATION}>
      <App queryClient={queryClient} trpcClient={trpcClient} translations={translationsFor(language)} />
    </Router>,
    // One piece: a boundary sent apart needs an inline script to put it in place, which the CSP refuses.
    { onError: (error) => void errors.push(error), progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  queryClient.clear();
  const html = await streamToString(prelude);
  if (errors.length > 0) throw errors[0];
  return html;
}
