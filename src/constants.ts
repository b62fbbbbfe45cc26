// Business constants and limits shared by the client, the server and the workers.

import type { ExtensionMarket } from './enums.ts';

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Build information. The deploy-time REGION overrides `region` (see regions.ts). */
export const BUILD = {
  appId: 20,
  endpoint: 'web',
  profile: 'prod',
  region: 'chn',
  version: '25.9.12',
} as const;

export const LOGIN_COOKIE_KEY = 'logininfo';
/** A session, and its login cookie, lasts 24 hours unless the user asks to be remembered. */
export const LOGIN_COOKIE_MAX_AGE_MS = 24 * HOUR_MS;

/** Current extension / companion versions. */
export const EXTENSION_VERSIONS: Readonly<Record<ExtensionMarket, string>> = {
  chrome: '25.4.307',
  edge: '25.4.307',
  firefox: '25.4.307',
  safari: '25.3.1',
};
export const MINI_PROGRAM_VERSION = '24.3.1';

export type TextDirection = 'ltr' | 'rtl';

/** The 17 interface languages, in the spec's order. */
export const LANGUAGES = [
  { code: 'zh-CN', nativeName: '简体中文', dir: 'ltr' },
  { code: 'zh-TW', nativeName: '繁體中文', dir: 'ltr' },
  { code: 'en', nativeName: 'English', dir: 'ltr' },
  { code: 'ru', nativeName: 'Русский', dir: 'ltr' },
  { code: 'de', nativeName: 'Deutsch', dir: 'ltr' },
  { code: 'fr', nativeName: 'Français', dir: 'ltr' },
  { code: 'es', nativeName: 'Español', dir: 'ltr' },
  { code: 'ja', nativeName: '日本語', dir: 'ltr' },
  { code: 'ko', nativeName: '한국어', dir: 'ltr' },
  { code: 'it', nativeName: 'Italiano', dir: 'ltr' },
  { code: 'vi', nativeName: 'Tiếng Việt', dir: 'ltr' },
  { code: 'th', nativeName: 'ไทย', dir: 'ltr' },
  { code: 'pl', nativeName: 'Polski', dir: 'ltr' },
  { code: 'nl', nativeName: 'Nederlands', dir: 'ltr' },
  { code: 'pt', nativeName: 'Português', dir: 'ltr' },
  { code: 'ar', nativeName: 'العربية', dir: 'rtl' },
  { code: 'tr', nativeName: 'Türkçe', dir: 'ltr' },
] as const satisfies readonly { code: string; nativeName: string; dir: TextDirection }[];

export type Language = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_CODES: readonly Language[] = LANGUAGES.map((l) => l.code);

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGE_CODES as readonly string[]).includes(value);
}

export function languageDirection(language: Language): TextDirection {
  return LANGUAGES.find((l) => l.code === language)?.dir ?? 'ltr';
}

export const FOLDER_NAME_MAX = 32;
/** A note "has a link" only when its text is longer than this many characters. */
export const LINK_DETECTION_MIN = 15;
export const TRASH_RETENTION_DAYS = 30;
export const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * DAY_MS;
export const RECENT_KEYWORDS_MAX = 12;
export const RECENT_TAGS_MAX = 4;
/** Notes the list asks for at a time (the first chunk is what index.html carries). */
export const NOTE_LIST_CHUNK = 100;
/** Numbers at or above this are shown in thousands with k. */
export const COUNT_THOUSANDS_FROM = 10_000;

export const CARD_GRID = { width: 320, gap: 8 } as const;

export const TOAST = { successMs: 600, defaultMs: 3000, offset: 16 } as const;

/** The mobile left sidebar applies at this width or less. */
export const MOBILE_SIDEBAR_MAX = 600;

export const THEME_COLOURS = { dark: '#0C0C0C', light: '#F0F0F0' } as const;

export const DRAG = { marginPx: 4, debounceMs: 200 } as const;

/** Local-storage keys: all the client keeps in local storage. */
export const STORAGE_KEYS = {
  viewStyle: 'margin.viewStyle',
  sort: 'margin.sort',
  theme: 'margin.theme',
  language: 'margin.language',
  expandedFolders: 'margin.expandedFolders',
  recentTags: 'margin.recentTags',
  searchHistory: 'margin.searchHistory',
} as const;

/** What the sign-in-with-provider routes add to /login when a sign-in or a binding did not work. */
export const OIDC_FAILED_PARAM = 'error';
export const OIDC_FAILED_VALUE = 'oidc';
