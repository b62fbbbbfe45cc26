import { describe, expect, it } from 'vitest';
import { snapToWords } from '../../src/anchoring/words.ts';

/** Snaps the first occurrence of `selected` in `text` and returns the snapped text. */
function snapped(text: string, selected: string): string {
  const start = text.indexOf(selected);
  if (start < 0) throw new Error(`not in the text: ${selected}`);
  const range = snapToWords(text, start, start + selected.length);
  return text.slice(range.start, range.end);
}

describe('snapToWords', () => {
  const text = 'Margin keeps what you read, and lets you come back to it later.';

  it('a start inside a word takes the whole word', () => {
    expect(snapped(text, 'rgin keeps')).toBe('Margin keeps');
  });

  it('an end inside a word takes the whole word', () => {
    expect(snapped(text, 'keeps wh')).toBe('keeps what');
  });

  it('both ends inside words, and a selection inside one word', () => {
    expect(snapped(text, 'eeps what yo')).toBe('keeps what you');
    expect(snapped(text, 'ate')).toBe('later');
  });

  it('a selection already on word boundaries is left as it is', () => {
    expect(snapped(text, 'what you read')).toBe('what you read');
    expect(snapToWords(text, 0, text.length)).toEqual({ start: 0, end: text.length });
  });

  it('punctuation next to a word is not swallowed, and punctuation selected stays', () => {
    expect(snapped(text, 'you rea')).toBe('you read');
    expect(snapped(text, 'ead, and')).toBe('read, and');
    expect(snapped(text, 'back to it lat')).toBe('back to it later');
    expect(snapped('He said "hello" twice.', 'ell')).toBe('hello');
  });

  it('whitespace at either end is trimmed; whitespace alone becomes empty', () => {
    expect(snapped(text, ' what you ')).toBe('what you');
    expect(snapped('one\n\ntwo three', 'one\n\ntw')).toBe('one\n\ntwo');
    const blank = snapToWords('a   b', 1, 4);
    expect(blank.start).toBe(blank.end);
  });

  it('contractions, digits and accented words count as whole words', () => {
    expect(snapped("It doesn't matter", 'oesn')).toBe("doesn't");
    expect(snapped('Paid 12345 euros', '234')).toBe('12345');
    expect(snapped('Un café très fort', 'afé tr')).toBe('café très');
    expect(snapped('Вот пример текста', 'ример те')).toBe('пример текста');
  });

  it('CJK selections stay exact', () => {
    expect(snapped('我们一起阅读这篇文章，然后做笔记。', '起阅读这')).toBe('起阅读这');
    expect(snapped('日本語の文章を読みます', '本語の文')).toBe('本語の文');
    expect(snapped('한국어 문장을 읽습니다', '국어 문')).toBe('국어 문');
    expect(snapped('中文  ', '中文  ')).toBe('中文');
  });

  it('mixed "中文English": the Latin end snaps, the CJK end stays exact', () => {
    expect(snapped('学习中文English很有趣', '文Eng')).toBe('文English');
    expect(snapped('Read English中文书籍', 'glish中')).toBe('English中');
  });

  it('reversed or out-of-range offsets are put in order and clamped', () => {
    expect(snapToWords('hello world', 8, 2)).toEqual({ start: 0, end: 11 });
    expect(snapToWords('hello', -5, 99)).toEqual({ start: 0, end: 5 });
  });

  it('a word longer than the look-around is left as selected', () => {
    const long = `a ${'x'.repeat(200)} b`;
    expect(snapToWords(long, 100, 105)).toEqual({ start: 100, end: 105 });
  });
});
