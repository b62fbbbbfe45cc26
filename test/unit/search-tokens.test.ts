import { describe, expect, test } from 'vitest';
import {
  documentLexemes,
  queryParts,
  substringChecks,
  tsqueryLiteral,
  tsvectorLiteral,
} from '../../src/search/tokens.ts';

/** What the database does with these literals, in miniature: every query term must be a lexeme. */
function matches(doc: string, query: string): boolean {
  const lexemes = new Set(documentLexemes(doc));
  const parts = queryParts(query);
  const wordsOk = parts.words.every((w) => [...lexemes].some((l) => l.startsWith(w)));
  const cjkOk = parts.cjkRuns.every((run) => {
    const chars = [...run];
    const grams = chars.length === 1 ? chars : chars.slice(0, -1).map((c, i) => c + chars[i + 1]);
    return grams.every((g) => lexemes.has(g));
  });
  const substringsOk = substringChecks(parts).every((s) => doc.normalize('NFKC').toLowerCase().includes(s));
  return wordsOk && cjkOk && substringsOk;
}

describe('search tokens (DESIGN: CJK searched exactly)', () => {
  test('默想 does not match 默认; 用户 finds 用户', () => {
    expect(matches('默认设置已经更新', '默想')).toBe(false);
    expect(matches('默想与冥思', '默想')).toBe(true);
    expect(matches('每个用户都有自己的书库', '用户')).toBe(true);
  });

  test('one character finds exactly that character', () => {
    expect(matches('用户', '用')).toBe(true);
    expect(matches('作者', '用')).toBe(false);
  });

  test('four characters need all bigrams and the run itself', () => {
    expect(matches('提升用户体验的方法', '用户体验')).toBe(true);
    expect(matches('体验用户户体', '用户体验')).toBe(false);
  });

  test('Japanese and Korean work the same way', () => {
    expect(matches('読書ノートを書く', 'ノート')).toBe(true);
    expect(matches('독서 노트를 쓰다', '노트')).toBe(true);
    expect(matches('독서 노래', '노트')).toBe(false);
  });

  test('Latin words match by prefix, case-insensitively, all words required', () => {
    expect(matches('The Reader keeps highlights', 'read high')).toBe(true);
    expect(matches('The Reader keeps highlights', 'read notes')).toBe(false);
  });

  test('mixed text and full-width forms are normalised', () => {
    expect(matches('ＲＥＡＤＩＮＧ用户', 'reading 用户')).toBe(true);
  });

  test('literals are quoted for PostgreSQL', () => {
    expect(tsvectorLiteral("it's a \\ test")).toBe("'it''s' 'a' 'test'");
    expect(tsqueryLiteral(queryParts('用户 read'))).toBe("'read':* & '用户'");
    expect(tsqueryLiteral(queryParts('  !!  '))).toBeNull();
  });
});
