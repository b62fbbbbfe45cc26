// Re-anchoring: the stored position, then exact occurrences of the quote ranked by context and
// nearness, then a fuzzy match on normalised text; a highlight that fits nowhere is detached.
import {
  anchorScore,
  averageContext,
  type ContextSimilarity,
  contextSimilarity,
  type QuoteContext,
  quoteContext,
} from './context.ts';
import { fuzzyMatch } from './fuzzy.ts';
import { isGraphemeBoundary, snapEndToGrapheme, snapStartToGrapheme } from './graphemes.ts';
import { type NormalizedText, normalizeText, toNormalizedOffset, toOriginalRange } from './normalize.ts';
import type { AnchorOptions, AnchorResult, HighlightSelectors } from './types.ts';

const DEFAULT_MIN_QUOTE_SIMILARITY = 0.75;
/** Average context similarity above which an exact occurrence is taken without a fuzzy search. */
const TRUSTED_CONTEXT = 0.5;
/** How much better a fuzzy match must score to beat an exact occurrence. */
const FUZZY_MARGIN = 0.05;
/** Quotes shorter than this (normalised) need agreeing context to be placed by a fuzzy match. */
const SHORT_QUOTE = 16;
/** Exact occurrences ranked at most; the nearest to the old position are kept. */
const MAX_OCCURRENCES = 256;
/**
 * Searches look first within this many code units (plus the quote's length) of where the
 * highlight is expected, and go over the whole text only when that finds nothing convincing.
 */
const LOCAL_RADIUS = 4096;
/** A fuzzy match found near the expected place with at least this score ends the search. */
const CONVINCING_LOCAL_SCORE = 0.85;

interface Window {
  from: number;
  to: number;
}

function localWindow(textLength: number, expected: number, quoteLength: number): Window | undefined {
  if (!Number.isFinite(expected)) return undefined;
  const radius = LOCAL_RADIUS + quoteLength;
  const from = Math.max(0, expected - radius);
  const to = Math.min(textLength, expected + radius + quoteLength);
  return from === 0 && to === textLength ? undefined : { from, to };
}

const DETACHED: AnchorResult = { status: 'detached' };

interface PageText {
  text: string;
  normalized: () => NormalizedText;
}

function pageText(text: string): PageText {
  let normalized: NormalizedText | undefined;
  return {
    text,
    normalized: () => {
      normalized ??= normalizeText(text);
      return normalized;
    },
  };
}

let lastPage: PageText | undefined;
function cachedPageText(text: string): PageText {
  if (lastPage?.text !== text) lastPage = pageText(text);
  return lastPage;
}

interface Placement {
  start: number;
  end: number;
  context: ContextSimilarity;
  score: number;
}

function exactAt(text: string, exact: string, start: number, context: QuoteContext): Placement | undefined {
  if (!Number.isInteger(start) || start < 0 || !text.startsWith(exact, start)) return undefined;
  const end = start + exact.length;
  if (!isGraphemeBoundary(text, start) || !isGraphemeBoundary(text, end)) return undefined;
  const similarity = contextSimilarity(text, start, end, context);
  return { start, end, context: similarity, score: anchorScore(1, similarity) };
}

function exactOccurrences(text: string, exact: string, oldStart: number, window?: Window): number[] {
  const searched = window ? text.slice(window.from, window.to) : text;
  const offset = window ? window.from : 0;
  const found: number[] = [];
  for (let at = searched.indexOf(exact); at !== -1; at = searched.indexOf(exact, at + 1))
    found.push(offset + at);
  if (found.length <= MAX_OCCURRENCES) return found;
  return found.sort((a, b) => Math.abs(a - oldStart) - Math.abs(b - oldStart)).slice(0, MAX_OCCURRENCES);
}

/** The exact occurrence with the best context, nearness to the old start breaking near-ties. */
function bestExactOccurrence(
  text: string,
  exact: string,
  oldStart: number,
  context: QuoteContext,
  window?: Window,
): Placement | undefined {
  let best: Placement | undefined;
  let bestRank = Number.NEGATIVE_INFINITY;
  for (const start of exactOccurrences(text, exact, oldStart, window)) {
    const placement = exactAt(text, exact, start, context);
    if (!placement) continue;
    const nearness = 1 - Math.min(1, Math.abs(start - oldStart) / Math.max(1, text.length));
    // Nearness only breaks ties: its weight is below the smallest context difference that counts.
    const rank = placement.score + 0.001 * nearness;
    if (rank > bestRank) {
      best = placement;
      bestRank = rank;
    }
  }
  return best;
}

function fuzzyPlacement(
  page: PageText,
  selectors: HighlightSelectors,
  expected: number,
  minQuoteSimilarity: number,
): Placement | undefined {
  const { exact, prefix, suffix } = selectors.quote;
  const normalized = page.normalized();
  const normalizedExact = normalizeText(exact).text;
  const context = quoteContext(normalizeText(prefix).text, normalizeText(suffix).text);
  const expectedStart = Number.isFinite(expected) ? toNormalizedOffset(normalized, expected) : undefined;
  const search = (window?: Window) =>
    fuzzyMatch(
      normalized.text,
      normalizedExact,
      context,
      expectedStart,
      minQuoteSimilarity,
      window && { text: normalized.text.slice(window.from, window.to), offset: window.from },
    );
  const window =
    expectedStart === undefined
      ? undefined
      : localWindow(normalized.text.length, expectedStart, normalizedExact.length);
  let match = window ? search(window) : undefined;
  if (!match || match.score < CONVINCING_LOCAL_SCORE) {
    const global = search();
    if (global && (!match || global.score > match.score)) match = global;
  }
  if (!match) return undefined;
  const trustworthy =
    match.quoteSimilarity === 1 ||
    normalizedExact.length >= SHORT_QUOTE ||
    averageContext(match.context) >= TRUSTED_CONTEXT;
  if (!trustworthy) return undefined;
  const original = toOriginalRange(normalized, match.start, match.end);
  const start = snapStartToGrapheme(page.text, original.start);
  const end = snapEndToGrapheme(page.text, original.end);
  if (end <= start) return undefined;
  return { start, end, context: match.context, score: match.score };
}

function anchorIn(
  page: PageText,
  selectors: HighlightSelectors,
  options: AnchorOptions,
  shift: number,
): AnchorResult {
  const { text } = page;
  const { exact, prefix, suffix } = selectors.quote;
  if (exact.length === 0) return DETACHED;
  const context = quoteContext(prefix, suffix);
  const oldStart = selectors.position?.start ?? Number.NaN;

  // The stored position, or the shift the previous highlight moved by, is taken without a search
  // only when the context on both sides is unchanged; anything less is ranked against every occurrence.
  const atPosition = exactAt(text, exact, oldStart, context);
  if (atPosition && atPosition.score === 1) {
    return {
      status: 'exact-position',
      start: atPosition.start,
      end: atPosition.end,
      score: atPosition.score,
    };
  }
  if (shift !== 0) {
    const shifted = exactAt(text, exact, oldStart + shift, context);
    if (shifted && shifted.score === 1) {
      return { status: 'exact-quote', start: shifted.start, end: shifted.end, score: shifted.score };
    }
  }

  const expected = Number.isFinite(oldStart) ? oldStart + shift : 0;
  const window = localWindow(text.length, expected, exact.length);
  const nearby = window && bestExactOccurrence(text, exact, expected, context, window);
  const exactMatch = nearby?.score === 1 ? nearby : bestExactOccurrence(text, exact, expected, context);
  if (exactMatch && averageContext(exactMatch.context) >= TRUSTED_CONTEXT) {
    const status = exactMatch.start === oldStart ? 'exact-position' : 'exact-quote';
    return { status, start: exactMatch.start, end: exactMatch.end, score: exactMatch.score };
  }

  const minQuoteSimilarity = options.minQuoteSimilarity ?? DEFAULT_MIN_QUOTE_SIMILARITY;
  const fuzzy = fuzzyPlacement(page, selectors, expected, minQuoteSimilarity);
  if (exactMatch && !(fuzzy && fuzzy.score > exactMatch.score + FUZZY_MARGIN)) {
    const status = exactMatch.start === oldStart ? 'exact-position' : 'exact-quote';
    return { status, start: exactMatch.start, end: exactMatch.end, score: exactMatch.score };
  }
  if (fuzzy) return { status: 'fuzzy', start: fuzzy.start, end: fuzzy.end, score: fuzzy.score };
  return DETACHED;
}

/** Places one highlight in `text` (the page's plain text; offsets in UTF-16 code units). */
export function anchor(
  text: string,
  selectors: HighlightSelectors,
  options: AnchorOptions = {},
): AnchorResult {
  return anchorIn(cachedPageText(text), selectors, options, 0);
}

const storedStart = (selectors: HighlightSelectors): number => {
  const start = selectors.position?.start;
  return Number.isInteger(start) ? start : Number.POSITIVE_INFINITY;
};

/**
 * Places every highlight, results in input order. Highlights are taken in reading order (stored
 * position), so the shift one moved by is tried first on the next: text inserted above a run of
 * highlights costs one check each. The text is normalised at most once.
 */
export function anchorAll(
  text: string,
  list: readonly HighlightSelectors[],
  options: AnchorOptions = {},
): AnchorResult[] {
  const page = pageText(text);
  const order = list.map((_, i) => i).sort((a, b) => storedStart(list[a]!) - storedStart(list[b]!) || a - b);
  const results: AnchorResult[] = new Array(list.length);
  let shift = 0;
  for (const i of order) {
    const selectors = list[i]!;
    const result = anchorIn(page, selectors, options, shift);
    if (result.status !== 'detached' && Number.isInteger(selectors.position?.start)) {
      shift = result.start - selectors.position.start;
    }
    results[i] = result;
  }
  return results;
}
