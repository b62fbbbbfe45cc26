import type { ResourceKey } from 'i18next';
import type English from '../src/i18n/locales/en.json';
import type { FIRST_SCREEN_NAMESPACES } from './first-screen-namespaces.ts';

// Each language's words in chunks: the first screen's namespaces in one, every other namespace
// in one of its own (later-locale-chunks.ts), so a browser loads only its language and only what
// the screens it opened show. The query names the part (vite-chunks.ts cuts the file to it);
// '&lang.json' keeps it read as JSON.

type Namespace = keyof typeof English;

/** Words the app never shows: the server's mails, the browser extension's own strings. */
type NotInApp = 'mail' | 'extension';

/** A namespace that loads with the screens that show it. */
export type LaterNamespace = Exclude<Namespace, (typeof FIRST_SCREEN_NAMESPACES)[number] | NotInApp>;

export type Chunks = Record<string, () => Promise<ResourceKey>>;

export const localeFile = (language: string) => `../src/i18n/locales/${language}.json`;

/** English's first screen is in the entry: most first visits read it, and it is every key's fallback. */
const FIRST_SCREEN_ENGLISH = Object.values(
  import.meta.glob<ResourceKey>('../src/i18n/locales/en.json', {
    query: '?ns=firstScreen&lang.json',
    import: 'default',
    eager: true,
  }),
)[0] as ResourceKey;

const FIRST_SCREEN: Chunks = import.meta.glob<ResourceKey>(
  ['../src/i18n/locales/*.json', '!../src/i18n/locales/en.json'],
  { query: '?ns=firstScreen&lang.json', import: 'default' },
);

/** The first screen's words in `language` ({} for a language with no file). */
export function firstScreenWords(language: string): Promise<ResourceKey> {
  if (language === 'en') return Promise.resolve(FIRST_SCREEN_ENGLISH);
  return FIRST_SCREEN[localeFile(language)]?.() ?? Promise.resolve({});
}
