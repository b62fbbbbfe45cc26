import { describe, expect, it } from 'vitest';
import {
  CJK_CHARACTERS_PER_MINUTE,
  readingLength,
  readingMinutes,
  WORDS_PER_MINUTE,
} from '../../src/text/reading-time.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 7}`).join(' ');

describe('reading time', () => {
  it('counts words in scripts that space them, characters in Han and Kana', () => {
    expect(readingLength('The quick brown fox — jumps, over the lazy dog.')).toEqual({
      characters: 0,
      words: 9,
    });
    expect(readingLength('我们一起阅读。')).toEqual({ characters: 6, words: 0 });
    expect(readingLength('ひらがなとカタカナ')).toEqual({ characters: 9, words: 0 });
    expect(readingLength('我爱 New York 城市')).toEqual({ characters: 4, words: 2 });
  });

  it('Korean by its spaced words; Thai by the words the segmenter finds', () => {
    expect(readingLength('한국어 문장을 읽습니다')).toEqual({ characters: 0, words: 3 });
    expect(readingLength('สวัสดีครับ').words).toBeGreaterThan(1);
  });

  it(`~${WORDS_PER_MINUTE} words a minute`, () => {
    expect(readingMinutes(words(WORDS_PER_MINUTE * 5))).toBe(5);
    expect(readingMinutes(words(WORDS_PER_MINUTE * 12 + 20))).toBe(12);
  });

  it(`~${CJK_CHARACTERS_PER_MINUTE} CJK characters a minute`, () => {
    expect(readingMinutes('读'.repeat(CJK_CHARACTERS_PER_MINUTE * 5))).toBe(5);
    expect(readingMinutes('読'.repeat(CJK_CHARACTERS_PER_MINUTE * 3))).toBe(3);
  });

  it('mixed text adds both; any text is at least a minute; none is 0', () => {
    expect(
      readingMinutes(`${'读'.repeat(CJK_CHARACTERS_PER_MINUTE * 2)} ${words(WORDS_PER_MINUTE * 2)}`),
    ).toBe(4);
    expect(readingMinutes('Hello.')).toBe(1);
    expect(readingMinutes('')).toBe(0);
    expect(readingMinutes(' \n\t… — ')).toBe(0);
  });
});
