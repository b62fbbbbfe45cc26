import { LANGUAGE_CODES } from '../../src/constants.ts';

// The extension's strings: the `extension.*` keys of the app's locale files (one place for every
// translation). `{{name}}` placeholders and `_one`/`_other` plurals as i18next writes them.

/** The language of the account when known, else the browser's, matched to one of the 17. */
export function pickLanguage(preferred: string | null | undefined): string {
  const candidates = [preferred, ...navigator.languages, navigator.language].filter(Boolean) as string[];
  for (const candidate of candidates) {
    const exact = LANGUAGE_CODES.find((code) => code.toLowerCase() === candidate.toLowerCase());
    if (exact) return exact;
    if (/^zh-(tw|hk|mo|hant)/i.test(candidate)) return 'zh-TW';
    const base = LANGUAGE_CODES.find((code) => code.split('-')[0] === candidate.split('-')[0]?.toLowerCase());
    if (base) return base;
  }
  return 'en';
}

export type Translate = (key: string, values?: Record<string, string | number>) => string;

/** Translates with one language's strings (English filled in where it lacks a key). */
export function makeTranslator(language: string, messages: Record<string, string>): Translate {
  const rules = new Intl.PluralRules(language);
  return (key, values = {}) => {
    const count = values.count;
    const plural = typeof count === 'number' ? `${key}_${rules.select(count)}` : null;
    const template = (plural && (messages[plural] ?? messages[`${key}_other`])) ?? messages[key] ?? key;
    return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
      values[name] === undefined
        ? ''
        : typeof values[name] === 'number'
          ? values[name].toLocaleString(language)
          : String(values[name]),
    );
  };
}

export const directionOf = (language: string): 'rtl' | 'ltr' => (language === 'ar' ? 'rtl' : 'ltr');
