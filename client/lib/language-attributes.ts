import { isLanguage, languageDirection } from '../../src/constants.ts';

/**
 * `lang` and `dir` for the app's own words (a date, "5 min read") set inside content of another
 * language, such as an English article's header in the Arabic app: they keep their language's
 * direction, as an island of their own.
 */
export function uiLanguageAttributes(language: string): { lang: string; dir: 'ltr' | 'rtl' | 'auto' } {
  return { lang: language, dir: isLanguage(language) ? languageDirection(language) : 'auto' };
}
