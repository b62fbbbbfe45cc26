/**
 * Search tokens, built by our code so Chinese, Japanese and Korean are searched exactly:
 * each CJK run is indexed as its characters and its character bigrams, the bigrams with their
 * positions; other text as lower-cased words. A query of one CJK character looks up that
 * character; two characters look up their bigram (so `默想` never matches `默认`, and `用户`
 * always finds `用户`); three or more look up the phrase of their bigrams, each one position
 * after the last, which only the run itself satisfies (so `用户体验` does not match
 * `体验用户户体`). Positions count CJK characters only, and a run's last character has no
 * bigram, so a phrase never continues from one run into the next.
 *
 * A vector holds positions only up to PostgreSQL's limits (positions up to 16,383, at most 256
 * per lexeme); a text past them is marked UNPOSITIONED. A marked vector, and every vector while
 * the stored ones predate positions (POSITIONS_VERSION), is matched on its bigrams in any order,
 * and the caller confirms the run with a substring check (server/domain/search/search-condition.ts).
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
 * 3: CJK bigrams carry their positions; a vector past PostgreSQL's limits is marked UNPOSITIONED.
 */
export const SEARCH_TOKENS_VERSION = 3;
/** The first version whose vectors carry CJK positions. */
export const POSITIONS_VERSION = 3;

/** PostgreSQL's limits on a tsvector's positions: the largest position, and how many one lexeme keeps. */
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_LEXEME = 256;
/**
 * The lexeme of a vector whose CJK bigrams lack some of their positions. No text produces it (a
 * term never contains `~`), so no query can look it up by accident.
 */
export const UNPOSITIONED = '~unpositioned';

export interface QueryParts {
  /** Latin-script words, matched by prefix. */
  words: string[];
  /** CJK runs as typed; runs of 3+ characters are phrases of their bigrams. */
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

/** What a document is indexed under. */
export interface DocumentTerms {
  /** Each lexeme, with the positions of a CJK bigram (empty for words and single characters). */
  lexemes: Map<string, number[]>;
  /** Whether every bigram kept all its positions (false past PostgreSQL's limits). */
  positionsComplete: boolean;
}

/** Every lexeme a document is indexed under, CJK bigrams with their positions. */
export function documentTerms(text: string): DocumentTerms {
  const lexemes = new Map<string, number[]>();
  const add = (lexeme: string) => {
    const positions = lexemes.get(lexeme) ?? [];
    if (!lexemes.has(lexeme)) lexemes.set(lexeme, positions);
    return positions;
  };
  let positionsComplete = true;
  // The position of the next CJK character.
  let position = 1;
  for (const { run, cjk } of runs(text)) {
    if (!cjk) {
      if (run.length <= MAX_WORD) add(run);
      for (const part of termParts(run)) if (part.length <= MAX_WORD) add(part);
      continue;
    }
    const chars = [...run];
    chars.forEach((c, i) => {
      add(c);
      const next = chars[i + 1];
      if (next) {
        const positions = add(c + next);
        if (position + i <= MAX_POSITION && positions.length < MAX_POSITIONS_PER_LEXEME)
          positions.push(position + i);
        else positionsComplete = false;
      }
    });
    position += chars.length;
  }
  return { lexemes, positionsComplete };
}

/** Every lexeme a document is indexed under (deduplicated). */
export function documentLexemes(text: string): string[] {
  return [...documentTerms(text).lexemes.keys()];
}

/**
 * A lexeme quoted for a `tsvector` or `tsquery` literal. Inside quotes only `'` and `\` are special
 * (operators, colons and spaces are text), so no query text can change the query's structure.
 */
const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * A `tsvector` literal for PostgreSQL's `::tsvector` cast: CJK bigrams with their positions,
 * and UNPOSITIONED when some were past PostgreSQL's limits. Texts are joined by a line break, so
 * a CJK run never continues from one text into the next.
 */
export function tsvectorLiteral(...texts: (string | null | undefined)[]): string {
  const { lexemes, positionsComplete } = documentTerms(texts.filter(Boolean).join('\n'));
  const entries = [...lexemes].map(([lexeme, positions]) =>
    positions.length ? `${quoteLexeme(lexeme)}:${positions.join(',')}` : quoteLexeme(lexeme),
  );
  if (!positionsComplete) entries.push(quoteLexeme(UNPOSITIONED));
  return entries.join(' ');
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

/** A CJK run's bigrams, in order (none for a single character). */
function bigrams(run: string): string[] {
  const chars = [...run];
  return chars.slice(0, -1).map((c, i) => c + chars[i + 1]);
}

/**
 * A `tsquery` literal that matches exactly: all words by prefix; a CJK character as itself, two
 * as their bigram, three or more as the phrase of their bigrams (`<->`: each one position after
 * the last). Null for an empty query.
 */
export function tsqueryLiteral(parts: QueryParts): string | null {
  const terms = parts.words.map((w) => `${quoteLexeme(w)}:*`);
  for (const run of parts.cjkRuns) {
    const grams = bigrams(run).map(quoteLexeme);
    terms.push(
      grams.length === 0
        ? quoteLexeme(run)
        : grams.length === 1
          ? (grams[0] as string)
          : `(${grams.join(' <-> ')})`,
    );
  }
  return terms.length ? [...new Set(terms)].join(' & ') : null;
}

/** The query that finds the vectors marked UNPOSITIONED. */
export const UNPOSITIONED_TSQUERY = quoteLexeme(UNPOSITIONED);

/**
 * A `tsquery` literal for the query without positions, when it has a CJK run of three or more
 * characters (otherwise null: tsqueryLiteral needs none): all words by prefix, all CJK characters
 * and bigrams in any order. It finds the candidates for tsqueryLiteral's phrases on the index
 * alone; on a vector without positions it is all that can be checked, and each of
 * substringChecks must then be confirmed in the text.
 */
export function anyOrderTsqueryLiteral(parts: QueryParts): string | null {
  if (!substringChecks(parts).length) return null;
  const terms = parts.words.map((w) => `${quoteLexeme(w)}:*`);
  for (const run of parts.cjkRuns)
    terms.push(...(bigrams(run).length ? bigrams(run) : [run]).map(quoteLexeme));
  return [...new Set(terms)].join(' & ');
}

/** CJK runs a match on a vector without positions must confirm as substrings (the phrases of the exact query). */
export function substringChecks(parts: QueryParts): string[] {
  return parts.cjkRuns.filter((run) => [...run].length > 2);
}
