import { describe, expect, it } from 'vitest';
import { countWords } from '../../src/text/word-count.ts';

describe('countWords', () => {
  it('counts Latin words separated by whitespace and punctuation', () => {
    expect(countWords('The quick brown fox — jumps, over the lazy dog.')).toBe(9);
  });

  it('keeps contractions, hyphenated words and decimals whole', () => {
    expect(countWords("It's a well-known fact: pi is 3.14")).toBe(7);
  });

  it('counts each Han, Kana and Hangul character as a word', () => {
    expect(countWords('中文字')).toBe(3);
    expect(countWords('ひらがなカタカナ')).toBe(8);
    expect(countWords('한국어')).toBe(3);
  });

  it('adds CJK characters and Latin words in mixed text', () => {
    expect(countWords('我爱 New York 城市')).toBe(6);
  });

  it('returns 0 for empty or blank text', () => {
    expect(countWords('')).toBe(0);
    expect(countWords(' \n\t ')).toBe(0);
  });
});
