import { describe, expect, test } from 'vitest';
import { validateFolderName, zFolderName } from '../../../src/rules/folder-name.ts';

describe('folder name must not be empty', () => {
  test('empty and whitespace-only are empty', () => {
    expect(validateFolderName('')).toEqual({ ok: false, error: 'empty' });
    expect(validateFolderName(' \t\u3000')).toEqual({ ok: false, error: 'empty' });
  });
});

describe('folder name must not contain / : or backslash', () => {
  test.each(['a/b', 'a:b', 'a\\b', '/', ':x'])('%s is refused', (name) =>
    expect(validateFolderName(name)).toEqual({ ok: false, error: 'forbiddenChars' }),
  );
  test('other punctuation and full-width look-alikes are allowed', () => {
    expect(validateFolderName('Reading — 2025 (Q1)!').ok).toBe(true);
    expect(validateFolderName('读书：笔记').ok).toBe(true);
  });
});

describe('folder name is at most 32 characters', () => {
  test('32 is fine, 33 is too long', () => {
    expect(validateFolderName('a'.repeat(32))).toEqual({ ok: true, name: 'a'.repeat(32) });
    expect(validateFolderName('a'.repeat(33))).toEqual({ ok: false, error: 'tooLong' });
  });
  test('characters are code points: 32 emoji (64 UTF-16 units) are fine', () => {
    expect(validateFolderName('📚'.repeat(32)).ok).toBe(true);
    expect(validateFolderName('📚'.repeat(33))).toEqual({ ok: false, error: 'tooLong' });
  });
  test('32 CJK characters are fine', () => expect(validateFolderName('书'.repeat(32)).ok).toBe(true));
  test('surrounding spaces do not count and are trimmed off', () =>
    expect(validateFolderName(`  ${'a'.repeat(32)}  `)).toEqual({ ok: true, name: 'a'.repeat(32) }));
  test('a decomposed accent counts as one character', () => {
    const decomposed = 'e\u0301'.repeat(32);
    expect(validateFolderName(decomposed)).toEqual({ ok: true, name: 'é'.repeat(32) });
  });
});

describe('zFolderName', () => {
  test('parses to the trimmed name', () => expect(zFolderName.parse('  Inbox  ')).toBe('Inbox'));
  test.each([
    ['', 'errors.folderNameEmpty'],
    ['a/b', 'errors.folderNameChars'],
    ['x'.repeat(33), 'errors.folderNameTooLong'],
  ])('%j fails with %s', (name, key) => {
    const result = zFolderName.safeParse(name);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([key]);
  });
  test('non-strings are refused', () => expect(zFolderName.safeParse(42).success).toBe(false));
});
