/**
 * Search tokens, built by our code so Chinese, Japanese and Korean are searched exactly:
 * each CJK run is indexed as its characters and its character bigrams; other text as
 * lower-cased words. A query of one CJK character looks up that character; two or more look up
 * every bigram (so `默想` never matches `默认`, and `用户` always finds `用户`); the caller then
 * confirms multi-character CJK runs with a substring check, because bigrams alone don't fix order.
 */
const CJK_CHAR = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}ー々〆]';
const CJK = new RegExp(CJK_CHAR, 'u');
/** A CJK run, or a word of any other letters and digits (stopping where CJK begins). */
const TOKEN_RUN = new RegExp(
  `${CJK_CHAR}+|(?:(?!${CJK_CHAR})[\\p{L}\\p{N}_])+(?:['’](?:(?!${CJK_CHAR})\\p{L})+)?`,
  'gu',
);
const MAX_WORD = 60;

export interface QueryParts {
  /** Latin-script words, matched by prefix. */
  words: string[];
  /** CJK runs as typed; runs of 2+ characters need the substring re-check. */
  cjkRuns: string[];
}

function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

function runs(text: string): { run: string; cjk: boolean }[] {
  return [...normalize(text).matchAll(TOKEN_RUN)].map((m) => ({ run: m[0], cjk: CJK.test(m[0][0] ?? '') }));
}

/** Every lexeme a document is indexed under (deduplicated). */
export function documentLexemes(text: string): string[] {
  const out = new Set<string>();
  for (const { run, cjk } of runs(text)) {
    if (!cjk) {
      if (run.length <= MAX_WORD) out.add(run.replace(/’/g, "'"));
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

const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** A `tsvector` literal (no positions) for PostgreSQL's `::tsvector` cast. */
export function tsvectorLiteral(...texts: (string | null | undefined)[]): string {
  return documentLexemes(texts.filter(Boolean).join('\n')).map(quoteLexeme).join(' ');
}

export function queryParts(query: string): QueryParts {
  const words: string[] = [];
  const cjkRuns: string[] = [];
  for (const { run, cjk } of runs(query)) (cjk ? cjkRuns : words).push(cjk ? run : run.slice(0, MAX_WORD));
  return { words, cjkRuns };
}

/** A `tsquery` literal: all words by prefix, all CJK characters/bigrams; null for an empty query. */
export function tsqueryLiteral(parts: QueryParts): string | null {
  const terms: string[] = parts.words.map((w) => `${quoteLexeme(w.replace(/’/g, "'"))}:*`);
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
