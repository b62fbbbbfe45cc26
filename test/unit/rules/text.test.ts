import { describe, expect, test } from 'vitest';
import { flattenMessages } from '../../../src/i18n/keys.ts';
import en from '../../../src/i18n/locales/en.json' with { type: 'json' };
import {
  INVALID_CHARACTERS_KEY,
  isStorableText,
  toStorableText,
  toStorableTextOrNull,
  zText,
} from '../../../src/rules/text.ts';

const LONE_HIGH = '\uD800';
const LONE_LOW = '\uDC00';

describe('isStorableText', () => {
  test('accepts ordinary text, emoji (surrogate pairs), CJK, RTL, tabs and newlines', () => {
    for (const text of [
      '',
      'hello',
      '😀 👩‍👩‍👧',
      '中文 日本語 한국어',
      'مرحبا',
      'a\tb\nc\r\n',
      '\uFFFD',
      '\u0001',
    ]) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(true);
    }
  });

  test('refuses U+0000 anywhere', () => {
    for (const text of ['\u0000', 'a\u0000', '\u0000b', 'a\u0000b']) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
    }
  });

  test('refuses lone surrogates, high or low, at either end or inside', () => {
    for (const text of [
      LONE_HIGH,
      LONE_LOW,
      `a${LONE_HIGH}`,
      `${LONE_LOW}a`,
      `😀${LONE_LOW}`,
      `${LONE_HIGH}${LONE_HIGH}`,
    ]) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
    }
  });
});

describe('toStorableText', () => {
  test('replaces NUL and lone surrogates with U+FFFD and keeps the rest', () => {
    expect(toStorableText('a\u0000b\u0000')).toBe('a\uFFFDb\uFFFD');
    expect(toStorableText(`x${LONE_HIGH}y😀`)).toBe('x\uFFFDy😀');
    expect(toStorableText('plain')).toBe('plain');
    expect(isStorableText(toStorableText(`\u0000${LONE_LOW}${LONE_HIGH}`))).toBe(true);
  });

  test('passes null and undefined through', () => {
    expect(toStorableTextOrNull(null)).toBeNull();
    expect(toStorableTextOrNull(undefined)).toBeUndefined();
    expect(toStorableTextOrNull('a\u0000')).toBe('a\uFFFD');
  });
});

describe('zText', () => {
  const schema = zText().trim().min(1, 'errors.cannotBeEmpty').max(5, 'errors.tooLong');

  test('accepts storable text and applies the chained rules', () => {
    expect(schema.parse('  abc  ')).toBe('abc');
    expect(schema.safeParse('   ').error?.issues[0]?.message).toBe('errors.cannotBeEmpty');
    expect(schema.safeParse('abcdef').error?.issues[0]?.message).toBe('errors.tooLong');
  });

  test('an invalid character is the first issue, with the translated key', () => {
    for (const value of ['a\u0000', LONE_HIGH, `${'x'.repeat(10)}\u0000`]) {
      const result = schema.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(INVALID_CHARACTERS_KEY);
    }
  });

  test('the key is a translated message key', () => {
    expect(INVALID_CHARACTERS_KEY).toBe('errors.invalidCharacters');
    expect(flattenMessages(en).get(INVALID_CHARACTERS_KEY)).toEqual(expect.stringMatching(/\S/));
  });
});
