/**
 * Search tokens, built by our code so Chinese, Japanese and Korean are searched exactly:
 * each CJK run is indexed as its characters and its character bigrams; other text as
 * lower-cased words. A query of one CJK character looks up that character; two or more look up
 * every bigram (so `默想` never matches `默认`, and `用户` always finds `用户`); the caller then
 * confirms multi-character CJK runs with a substring check, because bigrams alone don't fix order.
 */
const CJK_CHAR = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}ー々〆]';
const CJK = new RegExp(CJK_CHAR, 'u');

/**
 * What a term is outside CJK: the one rule the index (documentLexemes) and the query (queryParts)
 * share, so a term is always looked up exactly as it was stored.
 *
 * A term is a run of letters, digits and `_` (combining marks continue it, so accented and Indic
 * words stay whole), plus the symbols that belong to the word rather than to the sentence:
 *   - one of  . - ' @ & +  between letters/digits: node.js, ASP.NET, 3.14, v1.2.3, Wi-Fi, e-mail,
 *     it's, user@example.com, AT&T;
 *   - + or # at the end: C++, C#, F#, A+;
 *   - . or @ at the start, when it does not follow a letter, digit or another dot: .NET, @user.
 * (’ counts as ', after NFKC.) Everything else separates terms, so punctuation around words never
 * sticks to them: a sentence's final period or comma, `...`, quotes, brackets, slashes, dashes (and
 * a hyphen not between letters) and tsquery syntax outside a word (`: * | ! & ( ) < > \`). Before
 * this rule `C++` was the word `c`, searched as `c:*`: every word starting with c.
 *
 * A term with symbols is indexed under its plain parts too (C++ → c++ and c; node.js → node.js,
 * node and js), so searching `js`, `net` or `homme` (l'homme) still finds it, while the query
 * `C++` looks up `c++` alone and matches only what contains it. Bump SEARCH_TOKENS_VERSION when
 * this rule changes: the worker then re-indexes what was stored (server/domain/search/reindex.ts).
 */
const WORD_START = `(?:(?!${CJK_CHAR})[\\p{L}\\p{N}_])`;
const WORD_CORE = `${WORD_START}(?:(?!${CJK_CHAR})[\\p{L}\\p{M}\\p{N}_])*`;
const TERM = `(?:(?<![\\p{L}\\p{M}\\p{N}_.@])[.@])?${WORD_CORE}(?:[-.'@&+]${WORD_CORE})*[+#]*`;
/** A CJK run, or a term as above (stopping where CJK begins). */
const TOKEN_RUN = new RegExp(`${CJK_CHAR}+|${TERM}`, 'gu');
/** The plain parts of a term: its letters and digits between the symbols. */
const TERM_PART = new RegExp(WORD_CORE, 'gu');
const MAX_WORD = 60;

/**
 * The version of the rule above that stored search vectors were built with. Raise it whenever
 * the lexemes a text is indexed under change; the worker re-indexes every note and highlight once.
 * 1: words of letters and digits only. 2: terms keep their symbols (C++, .NET, node.js).
 */
export const SEARCH_TOKENS_VERSION = 2;

export interface QueryParts {
  /** Latin-script words, matched by prefix. */
  words: string[];
  /** CJK runs as typed; runs of 2+ characters need the substring re-check. */
  cjkRuns: string[];
}

function normalize(text: string): string {
  // NFKC folds full-width forms (ＣＯＤＥ, ＃) into the ASCII the rule expects; ’ is the same apostrophe as '.
  return text.normalize('NFKC').toLowerCase().replace(/’/g, "'");
}

function runs(text: string): { run: string; cjk: boolean }[] {
  return [...normalize(text).matchAll(TOKEN_RUN)].map((m) => ({ run: m[0], cjk: CJK.test(m[0][0] ?? '') }));
}

/** A term's plain parts when it carries symbols (c++ → c; node.js → node, js); none for a plain word. */
function termParts(term: string): string[] {
  const parts = term.match(TERM_PART) ?? [];
  return parts.length === 1 && parts[0] === term ? [] : parts;
}

/** Every lexeme a document is indexed under (deduplicated). */
export function documentLexemes(text: string): string[] {
  const out = new Set<string>();
  for (const { run, cjk } of runs(text)) {
    if (!cjk) {
      if (run.length <= MAX_WORD) out.add(run);
      for (const part of termParts(run)) if (part.length <= MAX_WORD) out.add(part);
      continue;
    }
    const chars = [...run];
    chars.forEach((c, i) => {
      out.add(c);
      const next = chars[i + 1];
      if (next) out.add(c + next);
    });
  }
  return [...out];
}

/**
 * A lexeme quoted for a `tsvector` or `tsquery` literal. Inside quotes only `'` and `\` are special
 * (operators, colons and spaces are text), so no query text can change the query's structure.
 */
const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** A `tsvector` literal (no positions) for PostgreSQL's `::tsvector` cast. */
export function tsvectorLiteral(...texts: (string | null | undefined)[]): string {
  return documentLexemes(texts.filter(Boolean).join('\n')).map(quoteLexeme).join(' ');
}

export function queryParts(query: string): QueryParts {
  const words: string[] = [];
  const cjkRuns: string[] = [];
  for (const { run, cjk } of runs(query)) {
    if (cjk) cjkRuns.push(run);
    // A term too long to be indexed whole is looked up by its parts, which are.
    else if (run.length <= MAX_WORD) words.push(run);
    else words.push(...(termParts(run).length ? termParts(run) : [run]).map((w) => w.slice(0, MAX_WORD)));
  }
  return { words, cjkRuns };
}

/** A `tsquery` literal: all words by prefix, all CJK characters/bigrams; null for an empty query. */
export function tsqueryLiteral(parts: QueryParts): string | null {
  const terms: string[] = parts.words.map((w) => `${quoteLexeme(w)}:*`);
  for (const run of parts.cjkRuns) {
    const chars = [...run];
    if (chars.length === 1) terms.push(quoteLexeme(run));
    else for (let i = 0; i + 1 < chars.length; i++) terms.push(quoteLexeme(`${chars[i]}${chars[i + 1]}`));
  }
  return terms.length ? [...new Set(terms)].join(' & ') : null;
}

/** CJK runs the caller must confirm as substrings (bigram order is not checked by the index). */
export function substringChecks(parts: QueryParts): string[] {
  return parts.cjkRuns.filter((run) => [...run].length > 2);
}
