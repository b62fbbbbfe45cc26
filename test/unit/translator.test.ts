import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { describe, expect, test } from 'vitest';
import { Translator, type Words } from '../../client/lib/translator.ts';
import { flattenMessages, pluralBase } from '../../src/i18n/keys.ts';

// The client's translator stands in for i18next (client/lib/translator.ts): for every key of
// every locale, with each count that picks another plural form and with values for its
// placeholders, it gives what i18next gives with the client's former settings.
const LOCALES = path.resolve(import.meta.dirname, '../../src/i18n/locales');
const locales = readdirSync(LOCALES)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({
    language: file.slice(0, -'.json'.length),
    words: JSON.parse(readFileSync(path.join(LOCALES, file), 'utf8')) as Words,
  }));
const english = locales.find((locale) => locale.language === 'en')?.words ?? {};

/** The keys as the app asks for them: plural forms under their base key. */
const baseKeys = (words: Words) => [
  ...new Set([...flattenMessages(words).keys()].map((key) => pluralBase(key) ?? key)),
];

const COUNTS = [0, 1, 2, 3, 5, 11, 21, 100, 1.5];

describe.each(locales)('$language', ({ language, words }) => {
  test('every key, count and placeholder as i18next has it, English as the fallback', async () => {
    const reference = i18next.createInstance();
    await reference.init({
      lng: language,
      fallbackLng: 'en',
      supportedLngs: false,
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
      resources: { [language]: { translation: words }, en: { translation: english } },
    });
    const ours = new Translator('en');
    ours.addResourceBundle('en', english);
    ours.addResourceBundle(language, words);
    ours.setLanguage(language);
    const values = { name: 'Ada', app: 'Obsidian', max: 64, field: 'text', number: 3 };
    const differences: string[] = [];
    for (const key of [...baseKeys(words), 'no.such.key']) {
      const cases: Record<string, unknown>[] = [{}, values, ...COUNTS.map((count) => ({ ...values, count }))];
      for (const options of cases) {
        const want = reference.t(key, options);
        const got = ours.translate(key, options);
        if (got !== want) differences.push(`${key} ${JSON.stringify(options)}: ${got} ≠ ${want}`);
      }
    }
    expect(differences).toEqual([]);
    const missing = 'errors.notAKey';
    expect(ours.translate(missing, { defaultValue: 'fallback words' })).toBe(
      reference.t(missing, { defaultValue: 'fallback words' }),
    );
  });
});

test('a language without a key falls back to English; a change is announced', () => {
  const ours = new Translator('en');
  ours.addResourceBundle('en', { app: { hello: 'Hello {{name}}' } });
  ours.addResourceBundle('de', { app: {} });
  const seen: string[] = [];
  ours.onLanguageChanged((language) => seen.push(language));
  let changes = 0;
  const unsubscribe = ours.subscribe(() => changes++);
  ours.setLanguage('de');
  expect(ours.translate('app.hello', { name: 'Ada' })).toBe('Hello Ada');
  ours.addResourceBundle('de', { app: { hello: 'Hallo {{name}}' } });
  expect(ours.translate('app.hello', { name: 'Ada' })).toBe('Hallo Ada');
  unsubscribe();
  ours.setLanguage('en');
  expect({ seen, changes }).toEqual({ seen: ['de', 'en'], changes: 2 });
});
