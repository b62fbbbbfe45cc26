import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isLanguage, type Language, languageDirection, STORAGE_KEYS } from '../src/constants.ts';
import { pickLanguage } from '../src/regions.ts';
import { firstScreenWords, type LaterNamespace } from './locale-chunks.ts';
import { currentRegion } from './region.ts';
import { SCREEN_WORDS, type Screen } from './screen-words.ts';

/** One namespace's words in `language`, from the chunk that knows where each one is. */
async function laterWords(language: string, namespace: LaterNamespace): Promise<ResourceKey> {
  const { laterWords: wordsOf } = await import('./later-locale-chunks.ts');
  return wordsOf(language, namespace);
}

/** The namespaces beyond the first screen's that the screens opened so far have asked for. */
const wantedLater = new Set<LaterNamespace>();

/** Every word of `language` the app has wanted so far: the first screen's and the screens' opened. */
async function wantedWords(language: string): Promise<ResourceKey> {
  const parts = await Promise.all([
    firstScreenWords(language),
    ...[...wantedLater].map((namespace) => laterWords(language, namespace)),
  ]);
  return Object.assign({}, ...parts);
}

const chunkedBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    wantedWords(language).then(
      (words) => callback(null, words),
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
    .use(chunkedBackend)
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
  // A language read before lacks the namespaces screens opened since (i18next reads it once).
  if (i18n.hasResourceBundle(language, 'translation'))
    i18n.addResourceBundle(language, 'translation', await wantedWords(language));
  await i18n.changeLanguage(language);
}

/** Loads of a namespace in a language, each made once (a failed one is tried again when asked). */
const namespaceLoads = new Map<string, Promise<void>>();

function addNamespace(language: string, namespace: LaterNamespace): Promise<void> {
  const key = `${language} ${namespace}`;
  let load = namespaceLoads.get(key);
  if (!load) {
    load = laterWords(language, namespace).then(
      (words) => void i18n.addResourceBundle(language, 'translation', words),
      (error: unknown) => {
        namespaceLoads.delete(key);
        throw error;
      },
    );
    namespaceLoads.set(key, load);
  }
  return load;
}

/**
 * The words `screen` shows (screen-words.ts) in the language the app reads in, added once they
 * are in; a screen waits for them before its first render. Every locale has every key
 * (test/unit/locales.test.ts), so English, the fallback, is not loaded beside another language.
 */
export async function loadTranslations(screen: Screen): Promise<void> {
  const namespaces: readonly LaterNamespace[] = SCREEN_WORDS[screen];
  for (const namespace of namespaces) wantedLater.add(namespace);
  const language = appLanguage() ?? 'en';
  await Promise.all(namespaces.map((namespace) => addNamespace(language, namespace)));
}

/** A module loaded on demand, once the words of `screen` are in: its first render has them. */
export async function withTranslations<T>(module: Promise<T>, screen: Screen): Promise<T> {
  const [loaded] = await Promise.all([module, loadTranslations(screen)]);
  return loaded;
}

export { i18n };
