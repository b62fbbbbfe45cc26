// Re-anchoring: the stored position when the quote and its context are all still there;
// otherwise every exact occurrence of the quote and every approximate match, on normalised text
// (so re-wrapped whitespace and typographic quotes change nothing), is a candidate, all judged by
// the one rule in ./scoring.ts. A highlight that fits nowhere, fits two places equally well, or
// whose own place is still there with its quote gone, is detached: reported lost rather than put
// somewhere else.

import { contextSimilarity, type QuoteContext, quoteContext } from './context.ts';
import { frames, soleFrame } from './frame.ts';
import { fuzzyCandidates } from './fuzzy.ts';
import { isGraphemeBoundary, snapEndToGrapheme, snapStartToGrapheme } from './graphemes.ts';
import { type NormalizedText, normalizeText, toNormalizedOffset, toOriginalRange } from './normalize.ts';
import {
  anchorScore,
  type Candidate,
  choose,
  contextAgreement,
  isAcceptable,
  maxQuoteEdits,
  overlaps,
  type Site,
} from './scoring.ts';
import type { AnchorResult, HighlightSelectors } from './types.ts';

/** Exact occurrences judged at most; the nearest to the expected place are kept. */
const MAX_OCCURRENCES = 256;
/**
 * Searches look first within this many code units (plus the quote's length) of where the
 * highlight is expected, and go over the whole text only when that finds nothing convincing.
 */
const LOCAL_RADIUS = 4096;
/** Context agreement at which a place found near the expected one ends the search. */
const CONVINCING_AGREEMENT = 0.9;
/** How far from the expected place the highlight's own place (its context) is looked for. */
const SITE_RADIUS = 64;
/** Context similarity each side needs for the highlight's own place to count as still there. */
const SITE_CONTEXT = 0.9;

interface Window {
  from: number;
  to: number;
}

function localWindow(
  textLength: number,
  expected: number | undefined,
  quoteLength: number,
): Window | undefined {
  if (expected === undefined) return undefined;
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

/** The stored quote and context, normalised like the page. */
interface Quote {
  exact: string;
  context: QuoteContext;
}

const normalized = (text: string): string => normalizeText(text).text;

function normalizedQuote(selectors: HighlightSelectors): Quote {
  const { exact, prefix, suffix } = selectors.quote;
  // The parts of the context inside the quote's own block: up to the nearest line break.
  const nearPrefix = prefix.slice(prefix.lastIndexOf('\n') + 1);
  const suffixBreak = suffix.indexOf('\n');
  const nearSuffix = suffixBreak === -1 ? suffix : suffix.slice(0, suffixBreak);
  return {
    exact: normalized(exact),
    context: quoteContext(
      normalized(prefix),
      normalized(suffix),
      normalized(nearPrefix),
      normalized(nearSuffix),
    ),
  };
}

function candidateAt(
  text: string,
  start: number,
  end: number,
  quoteSimilarity: number,
  context: QuoteContext,
  expected: number | undefined,
): Candidate {
  const similarity = contextSimilarity(text, start, end, context);
  return {
    start,
    end,
    quoteSimilarity,
    context: similarity,
    agreement: contextAgreement(similarity, context),
    distance: expected === undefined ? 0 : Math.abs(start - expected),
  };
}

/** Unchanged at `start` in the page text: the quote and every unit of its context. */
function untouchedAt(text: string, selectors: HighlightSelectors, start: number): boolean {
  const { exact, prefix, suffix } = selectors.quote;
  if (!Number.isInteger(start) || start < 0 || !text.startsWith(exact, start)) return false;
  const end = start + exact.length;
  // An empty side (the other one stored) is the text's edge: the quote began or ended the page.
  const edgesHold =
    prefix.length + suffix.length === 0 ||
    ((prefix.length > 0 || start === 0) && (suffix.length > 0 || end === text.length));
  return (
    edgesHold &&
    start >= prefix.length &&
    text.startsWith(prefix, start - prefix.length) &&
    text.startsWith(suffix, end) &&
    isGraphemeBoundary(text, start) &&
    isGraphemeBoundary(text, end)
  );
}

/** Every start where the quote and its whole context stand unchanged. */
function untouchedOccurrences(text: string, selectors: HighlightSelectors): number[] {
  const { exact } = selectors.quote;
  const found: number[] = [];
  for (let at = text.indexOf(exact); at !== -1; at = text.indexOf(exact, at + 1)) {
    if (untouchedAt(text, selectors, at)) found.push(at);
  }
  return found;
}

function exactCandidates(
  text: string,
  quote: Quote,
  expected: number | undefined,
  window?: Window,
): Candidate[] {
  const searched = window ? text.slice(window.from, window.to) : text;
  const offset = window ? window.from : 0;
  let starts: number[] = [];
  for (let at = searched.indexOf(quote.exact); at !== -1; at = searched.indexOf(quote.exact, at + 1)) {
    starts.push(offset + at);
  }
  if (starts.length > MAX_OCCURRENCES && expected !== undefined) {
    starts = starts.sort((a, b) => Math.abs(a - expected) - Math.abs(b - expected));
  }
  return starts
    .slice(0, MAX_OCCURRENCES)
    .map((start) => candidateAt(text, start, start + quote.exact.length, 1, quote.context, expected));
}

function fuzzyCandidatesNear(text: string, quote: Quote, expected: number | undefined): Candidate[] {
  const length = quote.exact.length;
  const search = (window?: Window) =>
    fuzzyCandidates(
      text,
      quote.exact,
      quote.context,
      expected,
      maxQuoteEdits(length),
      window && { text: text.slice(window.from, window.to), offset: window.from },
    );
  const window = localWindow(text.length, expected, length);
  const local = window ? search(window) : [];
  const convincing = local.some(
    (match) =>
      match.quoteSimilarity >= 0.9 && contextAgreement(match.context, quote.context) >= CONVINCING_AGREEMENT,
  );
  const matches = window && convincing ? local : [...local, ...search()];
  return matches.map((match) =>
    candidateAt(text, match.start, match.end, match.quoteSimilarity, quote.context, expected),
  );
}

/**
 * The highlight's own place, when the end of its prefix and the start of its suffix are still
 * next to each other near where it was expected, whatever is now between them.
 */
function siteNear(text: string, quote: Quote, expected: number | undefined): Site | undefined {
  const { context } = quote;
  // Whitespace at the quote's edges may have merged with the context's once the quote is gone.
  const prefixEnd = context.prefix.trimEnd().slice(-12);
  const suffixStart = context.suffix.trimStart().slice(0, 12);
  if (expected === undefined || prefixEnd.length < 8 || suffixStart.length < 8) return undefined;
  const from = Math.max(0, expected - SITE_RADIUS - prefixEnd.length);
  const to = Math.min(text.length, expected + SITE_RADIUS);
  let best: (Site & { rank: number }) | undefined;
  for (let at = text.indexOf(prefixEnd, from); at !== -1 && at < to; at = text.indexOf(prefixEnd, at + 1)) {
    const start = at + prefixEnd.length;
    const end = text.indexOf(suffixStart, start);
    if (end === -1 || end > start + 2 * quote.exact.length + 16) continue;
    const similarity = contextSimilarity(text, start, end, context);
    if (similarity.prefix < SITE_CONTEXT || similarity.suffix < SITE_CONTEXT) continue;
    // In text that repeats itself, the place whose context agrees best, then the nearest.
    const rank = similarity.prefix + similarity.suffix - Math.abs(start - expected) / text.length;
    if (!best || rank > best.rank) best = { start, end, rank };
  }
  return best && { start: best.start, end: best.end };
}

function placed(page: PageText, selectors: HighlightSelectors, best: Candidate): AnchorResult {
  const { exact } = selectors.quote;
  const original = toOriginalRange(page.normalized(), best.start, best.end);
  let start = snapStartToGrapheme(page.text, original.start);
  let end = snapEndToGrapheme(page.text, original.end);
  // A whitespace run normalises to one space: keep the stored quote's own share of it, at the
  // end of the run whose context is the stored one.
  // Only an exact match (on normalised text) is the stored quote with whitespace around it; a
  // fuzzy one that starts or ends with the quote has a typo at its other end.
  const exactMatch = best.quoteSimilarity === 1;
  const startAligned = exactMatch && page.text.startsWith(exact, start);
  const endAligned =
    exactMatch && end - exact.length >= start && page.text.startsWith(exact, end - exact.length);
  if (startAligned && endAligned && end - exact.length !== start) {
    const context = quoteContext(selectors.quote.prefix, selectors.quote.suffix);
    const similarityAt = (at: number) => {
      const { prefix, suffix } = contextSimilarity(page.text, at, at + exact.length, context);
      return prefix + suffix;
    };
    if (similarityAt(end - exact.length) > similarityAt(start)) start = end - exact.length;
    end = start + exact.length;
  } else if (startAligned) end = start + exact.length;
  else if (endAligned) start = end - exact.length;
  if (end <= start) return DETACHED;
  const status =
    page.text.slice(start, end) !== exact
      ? 'fuzzy'
      : start === selectors.position?.start
        ? 'exact-position'
        : 'exact-quote';
  return { status, start, end, score: anchorScore(best.quoteSimilarity, best.context) };
}

function anchorIn(page: PageText, selectors: HighlightSelectors, shift: number): AnchorResult {
  const { text } = page;
  const { exact } = selectors.quote;
  if (exact.length === 0) return DETACHED;
  const oldStart = selectors.position?.start ?? Number.NaN;

  // The stored position, or the shift the previous highlight moved by, is taken without a search
  // only when the quote and its context are all unchanged there.
  for (const start of shift === 0 ? [oldStart] : [oldStart, oldStart + shift]) {
    if (untouchedAt(text, selectors, start)) {
      const status = start === oldStart ? 'exact-position' : 'exact-quote';
      return { status, start, end: start + exact.length, score: 1 };
    }
  }

  const normalized = page.normalized();
  const quote = normalizedQuote(selectors);
  const length = quote.exact.length;
  if (length === 0) return DETACHED;
  const expected = Number.isFinite(oldStart) ? toNormalizedOffset(normalized, oldStart + shift) : undefined;
  const site = siteNear(normalized.text, quote, expected);

  // The quote with all its context unchanged is the highlight when there is one such place (or
  // one at its own place, if that still stands); copies elsewhere of a place that still stands
  // with its quote gone are not it, and several copies are judged like any candidates below.
  const untouched = untouchedOccurrences(text, selectors).filter((start) => {
    if (!site) return true;
    const at = toNormalizedOffset(normalized, start);
    return site.start <= at + length && at <= site.end;
  });
  if (untouched.length === 1) {
    const [start] = untouched as [number];
    return { status: 'exact-quote', start, end: start + exact.length, score: 1 };
  }

  // The quote's whole context unchanged around text a typo or so from it: that text, at its own
  // place when that still stands.
  const framed = frames(
    normalized.text,
    quote.exact,
    quote.context,
    Math.max(1, maxQuoteEdits(length)),
    expected,
  );
  const frame = soleFrame(site ? framed.filter((found) => overlaps(found, site)) : framed);
  if (frame) {
    const similarity = 1 - frame.edits / length;
    return placed(
      page,
      selectors,
      candidateAt(normalized.text, frame.start, frame.end, similarity, quote.context, expected),
    );
  }

  const window = localWindow(normalized.text.length, expected, length);
  let exacts = window ? exactCandidates(normalized.text, quote, expected, window) : [];
  const convincing = exacts.some(
    (candidate) => candidate.agreement >= CONVINCING_AGREEMENT && isAcceptable(candidate, length),
  );
  if (!window || !convincing) exacts = exactCandidates(normalized.text, quote, expected);
  const bestExact = choose(exacts, length, site);
  // A fuzzy match has at least one edit, so it cannot outrank an exact one this good.
  if (bestExact && anchorScore(1, bestExact.context) >= 1 - 0.5 / length)
    return placed(page, selectors, bestExact);

  const best = choose([...exacts, ...fuzzyCandidatesNear(normalized.text, quote, expected)], length, site);
  return best ? placed(page, selectors, best) : DETACHED;
}

/** Places one highlight in `text` (the page's plain text; offsets in UTF-16 code units). */
export function anchor(text: string, selectors: HighlightSelectors): AnchorResult {
  return anchorIn(cachedPageText(text), selectors, 0);
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
export function anchorAll(text: string, list: readonly HighlightSelectors[]): AnchorResult[] {
  const page = pageText(text);
  const order = list.map((_, i) => i).sort((a, b) => storedStart(list[a]!) - storedStart(list[b]!) || a - b);
  const results: AnchorResult[] = new Array(list.length);
  let shift = 0;
  for (const i of order) {
    const selectors = list[i]!;
    const result = anchorIn(page, selectors, shift);
    if (result.status !== 'detached' && Number.isInteger(selectors.position?.start)) {
      shift = result.start - selectors.position.start;
    }
    results[i] = result;
  }
  return results;
}
