import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  anyOrderTsqueryLiteral,
  documentLexemes,
  documentTerms,
  queryParts,
  substringChecks,
  tsqueryLiteral,
  tsvectorLiteral,
  UNPOSITIONED,
} from '../../src/search/tokens.ts';

const bigramsOf = (run: string) => {
  const chars = [...run];
  return chars.length === 1 ? chars : chars.slice(0, -1).map((c, i) => c + chars[i + 1]);
};

/**
 * What the database does with these literals (server/domain/search/search-condition.ts), in
 * miniature: words by prefix, CJK runs as phrases of their bigrams' positions; a vector marked
 * UNPOSITIONED matches on its bigrams in any order, confirmed by the substring check.
 */
function matches(doc: string, query: string): boolean {
  const { lexemes, positionsComplete } = documentTerms(doc);
  const parts = queryParts(query);
  const wordsOk = parts.words.every((w) => [...lexemes.keys()].some((l) => l.startsWith(w)));
  const phrase = (grams: string[]) =>
    (lexemes.get(grams[0] as string) ?? []).some((p) =>
      grams.every((g, i) => lexemes.get(g)?.includes(p + i)),
    );
  const exact = parts.cjkRuns.every((run) => {
    const grams = bigramsOf(run);
    return grams.length > 1 ? phrase(grams) : lexemes.has(grams[0] as string);
  });
  if (wordsOk && exact) return true;
  if (positionsComplete) return false;
  const anyOrder = parts.cjkRuns.every((run) => bigramsOf(run).every((g) => lexemes.has(g)));
  const substringsOk = substringChecks(parts).every((s) => doc.normalize('NFKC').toLowerCase().includes(s));
  return wordsOk && anyOrder && substringsOk;
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

  test('three or more characters are the phrase of their bigrams: the run itself, not its bigrams scattered', () => {
    expect(matches('提升用户体验的方法', '用户体验')).toBe(true);
    expect(matches('提升用户体验的方法', '户体验')).toBe(true);
    expect(matches('体验用户户体', '用户体验')).toBe(false);
    expect(matches('哈哈哈哈', '哈哈哈')).toBe(true);
    expect(matches('哈哈哈', '哈哈哈哈')).toBe(false);
    expect(tsqueryLiteral(queryParts('用户体验'))).toBe("('用户' <-> '户体' <-> '体验')");
    expect(tsqueryLiteral(queryParts('用户'))).toBe("'用户'");
  });

  test('a phrase never continues into the next run, text or highlight', () => {
    // Every bigram of 用户体验 is there, but 用户 ends a run: no bigram at its last character.
    expect(matches('用户。户体验', '用户体验')).toBe(false);
    expect(matches('用户。户体验', '用户体')).toBe(false);
    expect(matches('用户。户体验', '户体验')).toBe(true);
    expect(tsvectorLiteral('用户', '户体验')).toBe("'用' '用户':1 '户' '户体':3 '体' '体验':4 '验'");
    // Two runs typed apart are two words: both anywhere.
    expect(matches('用户。体验', '用户 体验')).toBe(true);
  });

  test('only CJK bigrams carry positions, counted in CJK characters', () => {
    expect(tsvectorLiteral('用户体验')).toBe("'用' '用户':1 '户' '户体':2 '体' '体验':3 '验'");
    expect(tsvectorLiteral('read 哈哈哈 notes 哈哈')).toBe("'read' '哈' '哈哈':1,2,4 'notes'");
    expect(tsvectorLiteral('read 用 notes')).toBe("'read' '用' 'notes'");
  });

  test("past PostgreSQL's position limits a vector is marked, and runs fall back to bigrams and substrings", () => {
    // 16,400 characters, none of their bigrams more than 256 times, then the run.
    const filler = Array.from({ length: 16_400 }, (_, i) => String.fromCodePoint(0x4e00 + (i % 97))).join('');
    const long = `${filler}用户体验`;
    const { lexemes, positionsComplete } = documentTerms(long);
    expect(positionsComplete).toBe(false);
    expect(Math.max(...[...lexemes.values()].flat())).toBe(16_383);
    expect(lexemes.get('用户')).toEqual([]);
    expect(tsvectorLiteral(long).endsWith(` '${UNPOSITIONED}'`)).toBe(true);
    expect(matches(long, '用户体验')).toBe(true);
    expect(matches(long, '体验用户')).toBe(false);

    const repeated = '用户体验，'.repeat(300);
    expect(documentTerms(repeated).positionsComplete).toBe(false);
    expect(documentTerms(repeated).lexemes.get('用户')).toHaveLength(256);
    expect(matches(repeated, '用户体验')).toBe(true);

    expect(anyOrderTsqueryLiteral(queryParts('用户体验 read'))).toBe("'read':* & '用户' & '户体' & '体验'");
    expect(anyOrderTsqueryLiteral(queryParts('用户 体验 read'))).toBeNull();
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
    expect(tsvectorLiteral("it's a \\ test")).toBe("'it''s' 'it' 's' 'a' 'test'");
    expect(tsqueryLiteral(queryParts('用户 read'))).toBe("'read':* & '用户'");
    expect(tsqueryLiteral(queryParts('  !!  '))).toBeNull();
  });
});

describe('search tokens: symbols that are part of a term are kept (C++, C#, .NET, node.js)', () => {
  const docs = {
    cpp: 'Modern C++ in practice',
    cat: 'The cat sat on the mat',
    code: 'Readable code and comments',
    csharp: 'Async streams in C#',
    dotnet: 'Deploying .NET services',
    node: 'Streams in node.js',
    fsharp: 'Pattern matching in F#',
    aspnet: 'Routing in ASP.NET Core',
  };
  const found = (query: string) =>
    Object.entries(docs)
      .filter(([, text]) => matches(text, query))
      .map(([key]) => key);

  test('each symbol term finds exactly the documents that contain it', () => {
    expect(found('C++')).toEqual(['cpp']);
    expect(found('c#')).toEqual(['csharp']);
    expect(found('F#')).toEqual(['fsharp']);
    expect(found('.NET')).toEqual(['dotnet']);
    expect(found('node.js')).toEqual(['node']);
    expect(found('Node.JS')).toEqual(['node']);
    expect(found('asp.net')).toEqual(['aspnet']);
  });

  test('plain words keep prefix matching, and find the parts of symbol terms', () => {
    expect(found('c')).toEqual(['cpp', 'cat', 'code', 'csharp', 'aspnet']);
    expect(found('ca')).toEqual(['cat']);
    expect(found('js')).toEqual(['node']);
    expect(found('net')).toEqual(['dotnet', 'aspnet']);
    expect(found('stream')).toEqual(['csharp', 'node']);
  });

  test('a term is indexed whole and by its plain parts', () => {
    expect(documentLexemes('C++')).toEqual(['c++', 'c']);
    expect(documentLexemes('C# F#')).toEqual(['c#', 'c', 'f#', 'f']);
    expect(documentLexemes('.NET')).toEqual(['.net', 'net']);
    expect(documentLexemes('ASP.NET')).toEqual(['asp.net', 'asp', 'net']);
    expect(documentLexemes('node.js')).toEqual(['node.js', 'node', 'js']);
    expect(documentLexemes('Wi-Fi')).toEqual(['wi-fi', 'wi', 'fi']);
    expect(documentLexemes('e-mail')).toEqual(['e-mail', 'e', 'mail']);
    expect(documentLexemes('3.14')).toEqual(['3.14', '3', '14']);
    expect(documentLexemes('v1.2.3')).toEqual(['v1.2.3', 'v1', '2', '3']);
    expect(documentLexemes('@user')).toEqual(['@user', 'user']);
    expect(documentLexemes('under_score')).toEqual(['under_score']);
    expect(documentLexemes('user@example.com')).toEqual(['user@example.com', 'user', 'example', 'com']);
    expect(documentLexemes('AT&T')).toEqual(['at&t', 'at', 't']);
    expect(documentLexemes('l’homme')).toEqual(["l'homme", 'l', 'homme']);
  });

  test('sentence punctuation around a term is not part of it', () => {
    expect(documentLexemes('I love C++.')).toEqual(['i', 'love', 'c++', 'c']);
    expect(documentLexemes('(node.js), "F#"; [.NET]!')).toEqual([
      'node.js',
      'node',
      'js',
      'f#',
      'f',
      '.net',
      'net',
    ]);
    expect(documentLexemes('wait...what')).toEqual(['wait', 'what']);
    expect(documentLexemes('e.g. Mr. Smith')).toEqual(['e.g', 'e', 'g', 'mr', 'smith']);
    expect(documentLexemes("'quoted' -dash- -- end—start")).toEqual(['quoted', 'dash', 'end', 'start']);
    expect(documentLexemes('C++/CLI and C#/F#')).toEqual(['c++', 'c', 'cli', 'and', 'c#', 'f#', 'f']);
    expect(documentLexemes('#tag')).toEqual(['tag']);
  });

  test('the query looks a term up whole, by prefix, punctuation stripped the same way', () => {
    expect(tsqueryLiteral(queryParts('C++'))).toBe("'c++':*");
    expect(tsqueryLiteral(queryParts('C#, .NET.'))).toBe("'c#':* & '.net':*");
    expect(tsqueryLiteral(queryParts('"node.js"'))).toBe("'node.js':*");
    expect(tsqueryLiteral(queryParts('Ｃ＃'))).toBe("'c#':*");
    // While typing: `node.` is still the word node.
    expect(tsqueryLiteral(queryParts('node.'))).toBe("'node':*");
  });

  test('CJK next to symbol terms stays exact', () => {
    expect(documentLexemes('用户node.js')).toEqual(['用', '用户', '户', 'node.js', 'node', 'js']);
    expect(queryParts('用户 C++')).toEqual({ words: ['c++'], cjkRuns: ['用户'] });
  });

  test('a term too long to index whole is indexed and queried by its parts', () => {
    const long = `${'a'.repeat(40)}.${'b'.repeat(40)}`;
    expect(documentLexemes(long)).toEqual(['a'.repeat(40), 'b'.repeat(40)]);
    expect(queryParts(long).words).toEqual(['a'.repeat(40), 'b'.repeat(40)]);
    expect(matches(`see ${long}.`, long)).toBe(true);
  });
});

/**
 * A tsquery literal as tsqueryLiteral may write it: quoted lexemes, optionally prefix, or
 * parenthesised phrases of lexemes, joined by &; a tsvector literal: quoted lexemes, optionally
 * with positions.
 */
const SAFE_LEXEME = String.raw`'(?:[^'\\]|''|\\\\)+'`;
const SAFE_TERM = `(?:${SAFE_LEXEME}(?::\\*)?|\\(${SAFE_LEXEME}(?: <-> ${SAFE_LEXEME})+\\))`;
const SAFE_TSQUERY = new RegExp(`^${SAFE_TERM}(?: & ${SAFE_TERM})*$`, 'u');
const SAFE_ENTRY = `${SAFE_LEXEME}(?::\\d+(?:,\\d+)*)?`;
const SAFE_TSVECTOR = new RegExp(`^(?:${SAFE_ENTRY}(?: ${SAFE_ENTRY})*)?$`, 'u');
const SAFE_ANY_ORDER = new RegExp(`^${SAFE_LEXEME}(?::\\*)?(?: & ${SAFE_LEXEME}(?::\\*)?)*$`, 'u');

describe('search tokens: hostile input', () => {
  test('tsquery syntax typed into the box is text, never operators', () => {
    expect(tsqueryLiteral(queryParts('a:* | b'))).toBe("'a':* & 'b':*");
    expect(tsqueryLiteral(queryParts("'"))).toBeNull();
    expect(tsqueryLiteral(queryParts("''"))).toBeNull();
    expect(tsqueryLiteral(queryParts('\\'))).toBeNull();
    expect(tsqueryLiteral(queryParts('!( ) <-> <2> & | :*'))).toBe("'2':*");
    expect(tsqueryLiteral(queryParts("it's"))).toBe("'it''s':*");
    expect(tsqueryLiteral(queryParts("x' | 'y"))).toBe("'x':* & 'y':*");
    expect(tsqueryLiteral(queryParts('a\\b'))).toBe("'a':* & 'b':*");
    expect(tsqueryLiteral(queryParts('c++:*'))).toBe("'c++':*");
  });

  const hostile = fc.string({
    unit: fc.constantFrom(...'abcC+#.-_\'’@&|!():*<>\\" ,;用户ＣÉ\u0301\n'.split('')),
    maxLength: 40,
  });

  test('any input gives well-formed literals', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(tsvectorLiteral(text)).toMatch(SAFE_TSVECTOR);
        const query = tsqueryLiteral(queryParts(text));
        if (query !== null) expect(query).toMatch(SAFE_TSQUERY);
        const anyOrder = anyOrderTsqueryLiteral(queryParts(text));
        if (anyOrder !== null) expect(anyOrder).toMatch(SAFE_ANY_ORDER);
      }),
      { numRuns: 2000 },
    );
  });

  test('index and query agree: a text always finds itself', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(matches(text, text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
