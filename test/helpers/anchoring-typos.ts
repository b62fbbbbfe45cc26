// One-character typos inside a highlighted quote (a character substituted, inserted or deleted at
// its first character, its last or inside it), on quotes of 1–6 characters and longer, Latin and
// CJK: where the highlight lands, judged by the rule (placed and true range overlap by at
// least 90 % of each). An orphan is not a silent error; any placement that is not correct is.
// Used by the typo bench and the anchoring typo test.
import {
  type AnchorResult,
  anchor,
  describeRange,
  type HighlightSelectors,
} from '../../src/anchoring/index.ts';
import {
  between,
  coversTruth,
  pick,
  type Random,
  type Range,
  selectionEdges,
  typoCharacter,
} from './anchoring-edits.ts';

export const TYPO_KINDS = ['substituted', 'inserted', 'deleted'] as const;
export type TypoKind = (typeof TYPO_KINDS)[number];
/** `first` and `last` are the quote's own edge characters; an insertion there goes before the first or after the last. */
export const TYPO_POSITIONS = ['first', 'inside', 'last'] as const;
export type TypoPosition = (typeof TYPO_POSITIONS)[number];
export const QUOTE_LENGTHS = ['1', '2', '3', '4', '5', '6', '7–20', '21–80', '81–400'] as const;
export type QuoteLength = (typeof QUOTE_LENGTHS)[number];

const LENGTH_RANGES: Record<QuoteLength, [number, number]> = {
  '1': [1, 1],
  '2': [2, 2],
  '3': [3, 3],
  '4': [4, 4],
  '5': [5, 5],
  '6': [6, 6],
  '7–20': [7, 20],
  '21–80': [21, 80],
  '81–400': [81, 400],
};

export type TypoVerdict = 'correct' | 'misplaced' | 'orphaned';

export interface TypoCase {
  kind: TypoKind;
  position: TypoPosition;
  length: QuoteLength;
  script: 'latin' | 'cjk';
  selectors: HighlightSelectors;
  edited: string;
  truth: Range;
}

const isSpace = (char: string | undefined): boolean => char === undefined || /\s/u.test(char);
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A range a reader could select (word edges in Latin, any character in CJK) of `low`–`high` code units. */
function quoteRange(
  random: Random,
  text: string,
  edges: number[],
  [low, high]: [number, number],
): Range | undefined {
  for (let attempt = 0; attempt < 400; attempt++) {
    const from = between(random, 0, edges.length - 2);
    const start = edges[from]!;
    if (isSpace(text[start])) continue;
    const ends: number[] = [];
    for (let to = from + 1; to < edges.length && edges[to]! - start <= high; to++) {
      const end = edges[to]!;
      if (end - start >= low && !isSpace(text[end - 1]) && !text.slice(start, end).includes('\n'))
        ends.push(end);
    }
    if (ends.length > 0) return { start, end: pick(random, ends) };
  }
  return undefined;
}

/** The quote with one typo at `position`; undefined when that typo cannot be made on it. */
function withTypo(random: Random, quote: string, kind: TypoKind, position: TypoPosition): string | undefined {
  const n = quote.length;
  if (position === 'inside' && n < (kind === 'inserted' ? 2 : 3)) return undefined;
  if (kind === 'deleted' && n < 2) return undefined;
  if (kind === 'inserted') {
    const at = position === 'first' ? 0 : position === 'last' ? n : between(random, 1, n - 1);
    return quote.slice(0, at) + typoCharacter(random, quote[Math.min(at, n - 1)]!) + quote.slice(at);
  }
  const at = position === 'first' ? 0 : position === 'last' ? n - 1 : between(random, 1, n - 2);
  if (kind === 'deleted') return quote.slice(0, at) + quote.slice(at + 1);
  let other = typoCharacter(random, quote[at]!);
  while (other === quote[at]) other = typoCharacter(random, quote[at]!);
  return quote.slice(0, at) + other + quote.slice(at + 1);
}

/**
 * A typo case on `page`: the quote length class, kind and position come from `index` and the
 * generator, so that every class is about equally represented. Undefined when the page has no quote
 * of that length (e.g. a Latin page and a 6-letter span between word edges).
 */
export function typoCase(random: Random, page: string, edges: number[], index: number): TypoCase | undefined {
  const length = QUOTE_LENGTHS[index % QUOTE_LENGTHS.length]!;
  const range = quoteRange(random, page, edges, LENGTH_RANGES[length]);
  if (!range) return undefined;
  const quote = page.slice(range.start, range.end);
  for (let attempt = 0; attempt < 10; attempt++) {
    const kind = pick(random, TYPO_KINDS);
    const position = pick(random, TYPO_POSITIONS);
    const typed = withTypo(random, quote, kind, position);
    if (typed === undefined || typed.trim().length === 0) continue;
    return {
      kind,
      position,
      length,
      script: CJK.test(quote) ? 'cjk' : 'latin',
      selectors: describeRange(page, range.start, range.end),
      edited: page.slice(0, range.start) + typed + page.slice(range.end),
      // A deletion next to a space leaves it at the edge: the highlight is the text, not the space.
      truth: {
        start: range.start + typed.length - typed.trimStart().length,
        end: range.start + typed.trimEnd().length,
      },
    };
  }
  return undefined;
}

export function typoVerdict(testCase: TypoCase, result: AnchorResult): TypoVerdict {
  if (result.status === 'detached') return 'orphaned';
  return coversTruth(testCase.truth, result) ? 'correct' : 'misplaced';
}

export interface TypoTally {
  cases: number;
  correct: number;
  misplaced: number;
  /** Misplaced on part of the true range (the rest elsewhere). */
  partial: number;
  orphaned: number;
}

const emptyTally = (): TypoTally => ({ cases: 0, correct: 0, misplaced: 0, partial: 0, orphaned: 0 });

const TYPO_DIMENSIONS = ['position', 'length', 'kind', 'script'] as const;
type Dimension = (typeof TYPO_DIMENSIONS)[number];

export interface TypoTallies {
  all: TypoTally;
  by: Record<Dimension, Map<string, TypoTally>>;
  /** Milliseconds per `anchor` call, in case order. */
  times: number[];
}

export function emptyTallies(): TypoTallies {
  return {
    all: emptyTally(),
    by: { position: new Map(), length: new Map(), kind: new Map(), script: new Map() },
    times: [],
  };
}

function count(tally: TypoTally, outcome: TypoVerdict, partial: boolean): void {
  tally.cases++;
  tally[outcome]++;
  if (partial) tally.partial++;
}

function tallyOf(tallies: TypoTallies, dimension: Dimension, key: string): TypoTally {
  let tally = tallies.by[dimension].get(key);
  if (!tally) {
    tally = emptyTally();
    tallies.by[dimension].set(key, tally);
  }
  return tally;
}

function add(into: TypoTally, from: TypoTally): void {
  into.cases += from.cases;
  into.correct += from.correct;
  into.misplaced += from.misplaced;
  into.partial += from.partial;
  into.orphaned += from.orphaned;
}

/** Adds `from`'s cases to `into` (the figures over several page sources). */
export function mergeTypoTallies(into: TypoTallies, from: TypoTallies): void {
  add(into.all, from.all);
  for (const dimension of TYPO_DIMENSIONS) {
    for (const [key, tally] of from.by[dimension]) add(tallyOf(into, dimension, key), tally);
  }
  into.times.push(...from.times);
}

export function recordTypo(tallies: TypoTallies, testCase: TypoCase, result: AnchorResult): TypoVerdict {
  const outcome = typoVerdict(testCase, result);
  const partial =
    outcome === 'misplaced' &&
    result.status !== 'detached' &&
    result.start < testCase.truth.end &&
    testCase.truth.start < result.end;
  count(tallies.all, outcome, partial);
  for (const dimension of TYPO_DIMENSIONS)
    count(tallyOf(tallies, dimension, testCase[dimension]), outcome, partial);
  return outcome;
}

/**
 * Anchors `cases` typo cases on pages from `pageAt` (a few cases a page), timing each `anchor`
 * call; `onCase` sees every case with its outcome.
 */
export function tallyTypos(
  cases: number,
  random: Random,
  pageAt: (index: number) => string,
  onCase?: (testCase: TypoCase, result: AnchorResult, outcome: TypoVerdict) => void,
): TypoTallies {
  const tallies = emptyTallies();
  const CASES_PER_PAGE = 4;
  let page = '';
  let edges: number[] = [];
  for (let made = 0, index = 0; made < cases; index++) {
    if (index % CASES_PER_PAGE === 0) {
      page = pageAt(index / CASES_PER_PAGE);
      edges = selectionEdges(page);
    }
    const testCase = typoCase(random, page, edges, made);
    if (!testCase) continue;
    made++;
    const started = performance.now();
    const result = anchor(testCase.edited, testCase.selectors);
    tallies.times.push(performance.now() - started);
    const outcome = recordTypo(tallies, testCase, result);
    onCase?.(testCase, result, outcome);
  }
  return tallies;
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? '–' : `${((100 * part) / whole).toFixed(2)}%`;

function row(label: string, t: TypoTally): string {
  return `| ${label} | ${t.cases} | ${percent(t.correct, t.cases)} | ${percent(t.misplaced, t.cases)} (${t.misplaced}, ${t.partial} partial) | ${percent(t.orphaned, t.cases)} |`;
}

const ORDER: Record<Dimension, readonly string[]> = {
  position: TYPO_POSITIONS,
  length: QUOTE_LENGTHS,
  kind: TYPO_KINDS,
  script: ['latin', 'cjk'],
};

/** Markdown tables: all cases, then by each dimension. */
export function formatTypoTallies(tallies: TypoTallies): string {
  const header = (first: string) => [
    `| ${first} | cases | correct (≥ 90 % both ways) | silently misplaced | orphaned |`,
    '|---|---|---|---|---|',
  ];
  const sections = [[...header('cases'), row('all', tallies.all)].join('\n')];
  for (const dimension of TYPO_DIMENSIONS) {
    const rows = ORDER[dimension]
      .filter((key) => tallies.by[dimension].has(key))
      .map((key) => row(key, tallies.by[dimension].get(key)!));
    sections.push(
      [
        ...header(
          `by ${dimension === 'length' ? 'quote length' : dimension === 'position' ? 'typo position' : dimension}`,
        ),
        ...rows,
      ].join('\n'),
    );
  }
  const times = [...tallies.times].sort((a, b) => a - b);
  const quantile = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  sections.push(`anchor call: p50 ${quantile(0.5).toFixed(2)} ms, p95 ${quantile(0.95).toFixed(2)} ms`);
  return sections.join('\n\n');
}
