import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isLanguage, type Language, languageDirection, STORAGE_KEYS } from '../src/constants.ts';
import { pickLanguage } from '../src/regions.ts';
import { FIRST_LOAD_ENGLISH, type LoadedLater, laterEnglish } from './english.ts';
import { currentRegion } from './region.ts';

// English ships in the main bundle (it is every key's fallback), but for the namespaces screens
// bring with them (english.ts); the other 16 languages load on demand, each file whole.
const lazyLocales = import.meta.glob<{ default: ResourceKey }>([
  '../src/i18n/locales/*.json',
  '!../src/i18n/locales/en.json',
]);

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (language === 'en') return callback(null, FIRST_LOAD_ENGLISH);
    const load = lazyLocales[`../src/i18n/locales/${language}.json`];
    if (!load) return callback(null, {});
    load().then(
      (module) => callback(null, module.default),
      (error: Error) => callback(error, null),
    );
  },
};

function readStoredLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.language);
  } catch {
    return null;
  }
}

function applyDocumentLanguage(language: string): void {
  if (!isLanguage(language)) return;
  document.documentElement.lang = language;
  document.documentElement.dir = languageDirection(language);
}

/** The language being loaded at boot, until i18next has it. */
let bootLanguage: string | undefined;

/** The language the user reads the app in, also while its translations are still loading. */
export function appLanguage(): string | undefined {
  return i18n.language || bootLanguage;
}

export async function initI18n(): Promise<typeof i18n> {
  const language = pickLanguage(
    currentRegion(),
    readStoredLanguage(),
    navigator.languages ?? [navigator.language],
  );
  bootLanguage = language;
  i18n.on('languageChanged', applyDocumentLanguage);
  await i18n
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: 'en',
      supportedLngs: false,
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    });
  applyDocumentLanguage(language);
  return i18n;
}

export async function changeLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEYS.language, language);
  } catch {
    // Private mode: the choice lasts for this tab only.
  }
  await i18n.changeLanguage(language);
}

/**
 * A module loaded on demand, once the English of its namespaces is in too: a screen's first render
 * has its words, in English or in the language whose missing keys fall back to it.
 */
export async function withEnglish<T>(module: Promise<T>, ...namespaces: LoadedLater[]): Promise<T> {
  const [loaded, ...resources] = await Promise.all([module, ...namespaces.map(laterEnglish)]);
  for (const [i, namespace] of namespaces.entries())
    i18n.addResourceBundle('en', 'translation', { [namespace]: resources[i] }, true, false);
  return loaded;
}

export { i18n };
