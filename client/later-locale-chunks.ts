import type { ResourceKey } from 'i18next';
import { type Chunks, type LaterNamespace, localeFile } from './locale-chunks.ts';

// Where every language's later namespaces are, in a chunk of its own: some 400 chunk names the
// first screen does without. One glob a namespace, as a glob's options must be literals: a
// namespace added to en.json fails the type check below until it is listed.

const LATER = {
  daily: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=daily&lang.json',
    import: 'default',
  }),
  notFound: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=notFound&lang.json',
    import: 'default',
  }),
  auth: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=auth&lang.json',
    import: 'default',
  }),
  settings: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=settings&lang.json',
    import: 'default',
  }),
  errors: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=errors&lang.json',
    import: 'default',
  }),
  membership: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=membership&lang.json',
    import: 'default',
  }),
  qr: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=qr&lang.json',
    import: 'default',
  }),
  account: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=account&lang.json',
    import: 'default',
  }),
  reader: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=reader&lang.json',
    import: 'default',
  }),
  highlights: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=highlights&lang.json',
    import: 'default',
  }),
  sync: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=sync&lang.json',
    import: 'default',
  }),
  webhooks: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=webhooks&lang.json',
    import: 'default',
  }),
  openapi: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=openapi&lang.json',
    import: 'default',
  }),
  feedback: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=feedback&lang.json',
    import: 'default',
  }),
  guide: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=guide&lang.json',
    import: 'default',
  }),
  changelog: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=changelog&lang.json',
    import: 'default',
  }),
  rateUs: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=rateUs&lang.json',
    import: 'default',
  }),
  colorTheme: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=colorTheme&lang.json',
    import: 'default',
  }),
  debugInfo: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=debugInfo&lang.json',
    import: 'default',
  }),
  extSettings: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=extSettings&lang.json',
    import: 'default',
  }),
  plugins: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=plugins&lang.json',
    import: 'default',
  }),
  banner: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=banner&lang.json',
    import: 'default',
  }),
  readerTools: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=readerTools&lang.json',
    import: 'default',
  }),
  listKeys: import.meta.glob<ResourceKey>('../src/i18n/locales/*.json', {
    query: '?ns=listKeys&lang.json',
    import: 'default',
  }),
} satisfies Record<LaterNamespace, Chunks>;

/** One namespace's words in `language`, as `{ [namespace]: … }` ({} for a language with no file). */
export function laterWords(language: string, namespace: LaterNamespace): Promise<ResourceKey> {
  return LATER[namespace][localeFile(language)]?.() ?? Promise.resolve({});
}
