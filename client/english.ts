import type { ResourceKey } from 'i18next';
import type English from '../src/i18n/locales/en.json';

// English is every key's fallback and the language of most first visits, so it ships in the main
// bundle, except the namespaces no first screen shows: the server's mails, the browser extension's
// own strings, and those of screens that bring their English with them (LATER_ENGLISH).
//
// One glob per namespace: only named imports let the bundler leave the other namespaces out, and
// TypeScript refuses named imports from JSON. A namespace added to en.json fails the type check
// below until it is listed here or there.

type Namespace = keyof typeof English;

/** Namespaces whose English is not in the main bundle. */
type LaterNamespace = 'mail' | 'extension' | LoadedLater;

/** The one module of a glob over one file. */
const only = (modules: Record<string, unknown>) => Object.values(modules)[0] as ResourceKey;

export const FIRST_LOAD_ENGLISH = {
  app: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'app' })),
  nav: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'nav' })),
  theme: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'theme' })),
  language: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'language' })),
  footer: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'footer' })),
  home: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'home' })),
  daily: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'daily' })),
  notFound: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'notFound' })),
  auth: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'auth' })),
  settings: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'settings' })),
  toast: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'toast' })),
  errors: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'errors' })),
  membership: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'membership' })),
  common: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'common' })),
  qr: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'qr' })),
  account: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'account' })),
  clip: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'clip' })),
  notes: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'notes' })),
  reader: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'reader' })),
  highlights: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'highlights' })),
  colorTheme: only(import.meta.glob('../src/i18n/locales/en.json', { eager: true, import: 'colorTheme' })),
} satisfies Record<Exclude<Namespace, LaterNamespace>, ResourceKey>;

// A query of its own makes each a module of its own, so each namespace is a chunk of its own
// rather than part of the main bundle's en.json ('&lang.json' keeps it read as JSON).
const LATER_ENGLISH = {
  guide: import.meta.glob('../src/i18n/locales/en.json', { import: 'guide', query: '?guide&lang.json' }),
  changelog: import.meta.glob('../src/i18n/locales/en.json', {
    import: 'changelog',
    query: '?changelog&lang.json',
  }),
  debugInfo: import.meta.glob('../src/i18n/locales/en.json', {
    import: 'debugInfo',
    query: '?debugInfo&lang.json',
  }),
  extSettings: import.meta.glob('../src/i18n/locales/en.json', {
    import: 'extSettings',
    query: '?extSettings&lang.json',
  }),
  plugins: import.meta.glob('../src/i18n/locales/en.json', {
    import: 'plugins',
    query: '?plugins&lang.json',
  }),
  banner: import.meta.glob('../src/i18n/locales/en.json', { import: 'banner', query: '?banner&lang.json' }),
  sync: import.meta.glob('../src/i18n/locales/en.json', { import: 'sync', query: '?sync&lang.json' }),
  webhooks: import.meta.glob('../src/i18n/locales/en.json', {
    import: 'webhooks',
    query: '?webhooks&lang.json',
  }),
  openapi: import.meta.glob('../src/i18n/locales/en.json', {
    import: 'openapi',
    query: '?openapi&lang.json',
  }),
  feedback: import.meta.glob('../src/i18n/locales/en.json', {
    import: 'feedback',
    query: '?feedback&lang.json',
  }),
  rateUs: import.meta.glob('../src/i18n/locales/en.json', { import: 'rateUs', query: '?rateUs&lang.json' }),
  readerTools: import.meta.glob('../src/i18n/locales/en.json', {
    import: 'readerTools',
    query: '?readerTools&lang.json',
  }),
} satisfies Partial<Record<Namespace, Record<string, () => Promise<unknown>>>>;

/** Namespaces a screen loads the English of when it opens. */
export type LoadedLater = keyof typeof LATER_ENGLISH;

/** The English of a namespace that is not in the main bundle. */
export function laterEnglish(namespace: LoadedLater): Promise<ResourceKey> {
  const [load] = Object.values(LATER_ENGLISH[namespace]);
  if (!load) return Promise.reject(new Error(`no English for ${namespace}`));
  return load() as Promise<ResourceKey>;
}
