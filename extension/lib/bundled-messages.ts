import { makeTranslator, type Translate } from './i18n.ts';

// The strings of all 17 languages, bundled into the background and the popup at build time. The
// content script, in every page, carries none: the background hands it its language's.

/** One language's strings, English filled in where it lacks a key. */
export function messagesFor(language: string): Record<string, string> {
  return { ...__MESSAGES__.en, ...__MESSAGES__[language] };
}

export function translator(language: string): Translate {
  return makeTranslator(language, messagesFor(language));
}
