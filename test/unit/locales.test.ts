import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { LANGUAGE_CODES } from '../../src/constants.ts';
import { flattenMessages, placeholders, pluralBase } from '../../src/i18n/keys.ts';

const dir = path.resolve(import.meta.dirname, '../../src/i18n/locales');
const load = (lang: string) =>
  flattenMessages(JSON.parse(fs.readFileSync(path.join(dir, `${lang}.json`), 'utf8')));
const en = load('en');

/** The keys a language must have: en's keys, with plural groups expanded to its CLDR categories. */
function expectedKeys(lang: string): string[] {
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of en.keys()) {
    const base = pluralBase(key);
    if (!base) keys.add(key);
    else for (const c of categories) keys.add(`${base}_${c}`);
  }
  return [...keys].sort();
}

describe('locales', () => {
  test('there is one file for each of the 17 languages and nothing else', () => {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...LANGUAGE_CODES].sort());
  });

  test.each(LANGUAGE_CODES.filter((l) => l !== 'en'))('%s has exactly the keys of en', (lang) => {
    expect([...load(lang).keys()].sort()).toEqual(expectedKeys(lang));
  });

  test.each(LANGUAGE_CODES)('%s has no empty values', (lang) => {
    const empty = [...load(lang)].filter(([, v]) => v.trim() === '').map(([k]) => k);
    expect(empty).toEqual([]);
  });

  test.each(LANGUAGE_CODES.filter((l) => l !== 'en'))('%s keeps the placeholders of en', (lang) => {
    const mismatched: string[] = [];
    for (const [key, message] of load(lang)) {
      const base = pluralBase(key);
      const source = en.get(key) ?? (base ? (en.get(`${base}_other`) ?? en.get(`${base}_one`)) : undefined);
      if (source === undefined) continue;
      const want = placeholders(source).filter((p) => !(base && p === 'count'));
      const have = placeholders(message).filter((p) => !(base && p === 'count'));
      if (JSON.stringify(want) !== JSON.stringify(have)) mismatched.push(key);
    }
    expect(mismatched).toEqual([]);
  });
});

/** Every source file that asks i18next for words: the app, the extension, the server's mails and errors. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

test('every key the code names literally, t("area.key"), is one English has (a missing one shows the key itself)', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const known = new Set([...en.keys()].flatMap((key) => [key, pluralBase(key) ?? key]));
  const missing: string[] = [];
  for (const top of ['client', 'extension', 'server', 'src'])
    for (const file of sourceFiles(path.join(root, top)))
      for (const [, key] of fs.readFileSync(file, 'utf8').matchAll(/\bt\(\s*['"]([a-zA-Z]\w*\.[\w.]+)['"]/g))
        if (!known.has(key as string)) missing.push(`${path.relative(root, file)}: ${key}`);
  expect(missing).toEqual([]);
});
