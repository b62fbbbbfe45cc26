import { describe, expect, test } from 'vitest';
import { ID_ALPHABET, isValidId, newId, zHighlightId } from '../../../src/rules/id.ts';

describe('highlight id alphabet: digits, hyphen and letters', () => {
  test('the alphabet is exactly digits, hyphen and ASCII letters', () => {
    expect(new Set(ID_ALPHABET).size).toBe(63);
    expect([...ID_ALPHABET].every((c) => /[0-9A-Za-z-]/.test(c))).toBe(true);
  });
});

describe('isValidId', () => {
  test('accepts 8 to 64 symbols from the alphabet', () => {
    expect(isValidId('abcd-123')).toBe(true);
    expect(isValidId('x'.repeat(64))).toBe(true);
  });
  test('refuses wrong lengths', () => {
    expect(isValidId('abc-123')).toBe(false);
    expect(isValidId('x'.repeat(65))).toBe(false);
  });
  test('refuses other characters', () => {
    for (const id of ['abcd_1234', 'abcd 1234', 'abcd.1234', 'abcdé1234', 'abcd/1234', '12345678\n']) {
      expect(isValidId(id), id).toBe(false);
    }
  });
  test('refuses non-strings', () => expect(isValidId(12345678)).toBe(false));
});

describe('newId', () => {
  test('makes valid ids of the requested length', () => {
    expect(newId()).toHaveLength(21);
    expect(newId(8)).toHaveLength(8);
    for (let i = 0; i < 200; i++) expect(isValidId(newId())).toBe(true);
  });
  test('ids do not repeat', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => newId()));
    expect(ids.size).toBe(5000);
  });
  test('every symbol of the alphabet turns up', () => {
    const seen = new Set(Array.from({ length: 300 }, () => newId(64)).join(''));
    expect(seen.size).toBe(63);
  });
  test('refuses lengths outside 8..64', () => {
    expect(() => newId(7)).toThrow(RangeError);
    expect(() => newId(65)).toThrow(RangeError);
  });
});

describe('zHighlightId', () => {
  test('accepts a generated id', () => {
    const id = newId();
    expect(zHighlightId.parse(id)).toBe(id);
  });
  test('refuses a bad id with a message key', () => {
    const result = zHighlightId.safeParse('bad id!');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('errors.invalidHighlightId');
  });
});
