import { describe, expect, test } from 'vitest';
import { cleanTitle, NO_TITLE, normalizeTitle } from '../../../src/rules/title.ts';

describe('titles: whitespace is collapsed and special punctuation removed', () => {
  test('whitespace of every kind collapses to single spaces and is trimmed', () =>
    expect(normalizeTitle('  Hello\t\n  world\u00A0\u3000again  ')).toBe('Hello world again'));
  test('control and zero-width characters are removed', () =>
    expect(normalizeTitle('Hel\u200Blo\u0007 wor\uFEFFld\u00AD')).toBe('Hello world'));
  test('decorative symbols are removed', () => {
    expect(normalizeTitle('★☆ Big news ►▶')).toBe('Big news');
    expect(normalizeTitle('※ 重要 ※ 通知')).toBe('重要 通知');
  });
  test('a | site separator is removed', () => expect(normalizeTitle('Article | Site')).toBe('Article Site'));
  test('separator runs at the ends are removed', () => {
    expect(normalizeTitle('--- Title ---')).toBe('Title');
    expect(normalizeTitle('===Title===')).toBe('Title');
    expect(normalizeTitle('Title -')).toBe('Title');
    expect(normalizeTitle('—— 标题 ——')).toBe('标题');
  });
  test('ordinary punctuation inside and at the end stays', () => {
    expect(normalizeTitle('Why? Because: it\'s "fine", ok. Yes!')).toBe(
      'Why? Because: it\'s "fine", ok. Yes!',
    );
    expect(normalizeTitle('Loading...')).toBe('Loading...');
  });
  test('CJK punctuation and brackets stay', () =>
    expect(normalizeTitle('【重磅】你好，世界！「测试」')).toBe('【重磅】你好，世界！「测试」'));
  test('meaningful symbols at the ends stay', () => {
    expect(normalizeTitle('Learn C#')).toBe('Learn C#');
    expect(normalizeTitle('-1 is negative')).toBe('-1 is negative');
    expect(normalizeTitle('列夫·托尔斯泰')).toBe('列夫·托尔斯泰');
  });
  test('emoji, including joined sequences, stay', () =>
    expect(normalizeTitle('Family 👨‍👩‍👧')).toBe('Family 👨‍👩‍👧'));
});

describe('an empty title becomes "No title"', () => {
  test('empty, null and undefined', () => {
    expect(normalizeTitle('')).toBe(NO_TITLE);
    expect(normalizeTitle(null)).toBe(NO_TITLE);
    expect(normalizeTitle(undefined)).toBe(NO_TITLE);
  });
  test('a title of only whitespace and ornaments', () =>
    expect(normalizeTitle(' ★ | — \u200B ')).toBe(NO_TITLE));
  test('NO_TITLE is the marker "No title"', () => expect(NO_TITLE).toBe('No title'));
  test('cleanTitle gives the empty string for storage', () => expect(cleanTitle(' ★ ')).toBe(''));
});
