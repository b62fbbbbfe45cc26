import { describe, expect, test } from 'vitest';
import { isValidNoteId, NOTE_ID_ALPHABET, newNoteId, zNoteId } from '../../../src/rules/note-id.ts';

describe('highlight id alphabet: digits, hyphen and letters', () => {
  test('the alphabet is exactly digits, hyphen and ASCII letters', () => {
    expect(new Set(NOTE_ID_ALPHABET).size).toBe(63);
    expect([...NOTE_ID_ALPHABET].every((c) => /[0-9A-Za-z-]/.test(c))).toBe(true);
  });
});

describe('isValidNoteId', () => {
  test('accepts 8 to 64 symbols from the alphabet', () => {
    expect(isValidNoteId('abcd-123')).toBe(true);
    expect(isValidNoteId('x'.repeat(64))).toBe(true);
  });
  test('refuses wrong lengths', () => {
    expect(isValidNoteId('abc-123')).toBe(false);
    expect(isValidNoteId('x'.repeat(65))).toBe(false);
  });
  test('refuses other characters', () => {
    for (const id of ['abcd_1234', 'abcd 1234', 'abcd.1234', 'abcdé1234', 'abcd/1234', '12345678\n']) {
      expect(isValidNoteId(id), id).toBe(false);
    }
  });
  test('refuses non-strings', () => expect(isValidNoteId(12345678)).toBe(false));
});

describe('newNoteId', () => {
  test('makes valid ids of the requested length', () => {
    expect(newNoteId()).toHaveLength(21);
    expect(newNoteId(8)).toHaveLength(8);
    for (let i = 0; i < 200; i++) expect(isValidNoteId(newNoteId())).toBe(true);
  });
  test('ids do not repeat', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => newNoteId()));
    expect(ids.size).toBe(5000);
  });
  test('every symbol of the alphabet turns up', () => {
    const seen = new Set(Array.from({ length: 300 }, () => newNoteId(64)).join(''));
    expect(seen.size).toBe(63);
  });
  test('refuses lengths outside 8..64', () => {
    expect(() => newNoteId(7)).toThrow(RangeError);
    expect(() => newNoteId(65)).toThrow(RangeError);
  });
});

describe('zNoteId', () => {
  test('accepts a generated id', () => {
    const id = newNoteId();
    expect(zNoteId.parse(id)).toBe(id);
  });
  test('refuses a bad id with a message key', () => {
    const result = zNoteId.safeParse('bad id!');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('errors.invalidNoteId');
  });
});
