// Fuzzy quote search on normalised text: exact occurrences of short seeds (pieces of the quote,
// the end of the prefix, the start of the suffix) vote for where the highlight now starts; the
// best few places, plus the old position, are verified with bounded edit-distance matching; each
// verified place comes back with its context similarity for the caller to judge.
import {
  type ContextSimilarity,
  contextSimilarity,
  prefixSimilarity,
  type QuoteContext,
  suffixSimilarity,
} from './context.ts';
import { bestMatch, compilePattern, levenshtein } from './edit-distance.ts';

export interface FuzzyMatch {
  start: number;
  end: number;
  quoteSimilarity: number;
  context: ContextSimilarity;
}

interface Vote {
  start: number;
  weight: number;
}

const MAX_SEED_OCCURRENCES = 16;
const MAX_QUOTE_SEEDS = 8;
const MAX_CANDIDATES = 8;
const CONTEXT_SEED_LENGTH = 12;

function seedLengthFor(quoteLength: number): number {
  if (quoteLength <= 12) return quoteLength;
  return Math.min(24, Math.max(8, Math.floor(quoteLength / 4)));
}

/** A part of the text to search: the whole of it, or a window around where a highlight should be. */
export interface SearchArea {
  /** The searched text (a slice of the page's normalised text). */
  text: string;
  /** Offset of `text` in the page's normalised text. */
  offset: number;
}

/** Adds a vote for `seed` at each occurrence, unless it occurs too often to tell anything. */
function voteForSeed(area: SearchArea, seed: string, startFromOccurrence: number, votes: Vote[]): void {
  if (seed.length < 3) return;
  const found: number[] = [];
  for (let at = area.text.indexOf(seed); at !== -1; at = area.text.indexOf(seed, at + 1)) {
    if (found.length === MAX_SEED_OCCURRENCES) return;
    found.push(area.offset + at);
  }
  for (const at of found) votes.push({ start: at + startFromOccurrence, weight: 1 / found.length });
}

function collectVotes(text: SearchArea, exact: string, context: QuoteContext): Vote[] {
  const votes: Vote[] = [];
  const seedLength = seedLengthFor(exact.length);
  const seedCount = Math.max(1, Math.min(MAX_QUOTE_SEEDS, Math.floor(exact.length / seedLength)));
  const span = exact.length - seedLength;
  for (let i = 0; i < seedCount; i++) {
    const offset = seedCount === 1 ? 0 : Math.round((i * span) / (seedCount - 1));
    voteForSeed(text, exact.slice(offset, offset + seedLength), -offset, votes);
  }
  const prefixSeed = context.prefix.slice(-CONTEXT_SEED_LENGTH);
  voteForSeed(text, prefixSeed, prefixSeed.length, votes);
  voteForSeed(text, context.suffix.slice(0, CONTEXT_SEED_LENGTH), -exact.length, votes);
  return votes;
}

/** Groups nearby votes and returns the likeliest starts, best first. */
function likelyStarts(votes: Vote[], slack: number): number[] {
  votes.sort((a, b) => a.start - b.start);
  const groups: { start: number; weight: number; best: number }[] = [];
  for (const vote of votes) {
    const last = groups[groups.length - 1];
    if (last && vote.start - last.start <= slack) {
      last.weight += vote.weight;
      if (vote.weight > last.best) last.best = vote.weight;
      continue;
    }
    groups.push({ start: vote.start, weight: vote.weight, best: vote.weight });
  }
  groups.sort((a, b) => b.weight - a.weight);
  return groups.slice(0, MAX_CANDIDATES).map((group) => group.start);
}

/**
 * Equally close matches are told apart by context, then by covering more (an earlier start, a
 * later end), so an insertion at a highlight's edge does not cut off the text beyond it.
 */
const MAX_TIES = 8;
function bestBy(offsets: number[], contextScore: (offset: number) => number, preferLater: boolean): number {
  let best = offsets[0]!;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const offset of offsets.slice(0, MAX_TIES)) {
    const score = contextScore(offset);
    const wider = preferLater ? offset > best : offset < best;
    if (score > bestScore || (score === bestScore && wider)) {
      best = offset;
      bestScore = score;
    }
  }
  return best;
}

/** Quotes shorter than this are also looked for between their context's two sides. */
const SANDWICHED_QUOTE = 32;

/**
 * Places where the end of the stored prefix and the start of the stored suffix are still there,
 * about a quote's length apart, with the text between them within `maxEdits` of the quote. A short
 * quote with a typo fixed is found here even when an untouched copy of it is nearby.
 */
function sandwiched(
  text: string,
  exact: string,
  context: QuoteContext,
  maxEdits: number,
  area: SearchArea,
): { start: number; end: number; edits: number }[] {
  const prefixSeed = context.prefix.slice(-CONTEXT_SEED_LENGTH);
  const suffixSeed = context.suffix.slice(0, CONTEXT_SEED_LENGTH);
  if (prefixSeed.length < 3 || suffixSeed.length < 3) return [];
  const found: { start: number; end: number; edits: number }[] = [];
  let seen = 0;
  for (let at = area.text.indexOf(prefixSeed); at !== -1; at = area.text.indexOf(prefixSeed, at + 1)) {
    if (++seen > MAX_SEED_OCCURRENCES) break;
    const start = area.offset + at + prefixSeed.length;
    for (
      let end = start + Math.max(1, exact.length - maxEdits);
      end <= start + exact.length + maxEdits;
      end++
    ) {
      if (!text.startsWith(suffixSeed, end)) continue;
      const edits = levenshtein(exact, text.slice(start, end));
      if (edits <= maxEdits) found.push({ start, end, edits });
    }
  }
  return found;
}

/**
 * Approximate occurrences of `exact` in `text` (both normalised) with at most `maxEdits` edits,
 * one per likely place. Seeds are looked up in `area` (all of `text` unless a window is given);
 * matches are verified against the whole text.
 */
export function fuzzyCandidates(
  text: string,
  exact: string,
  context: QuoteContext,
  expectedStart: number | undefined,
  maxEdits: number,
  area: SearchArea = { text, offset: 0 },
): FuzzyMatch[] {
  const length = exact.length;
  if (length === 0 || text.length === 0) return [];
  const slack = 16 + Math.ceil(length / 2);
  const starts = likelyStarts(collectVotes(area, exact, context), slack);
  if (expectedStart !== undefined && !starts.some((start) => Math.abs(start - expectedStart) <= slack)) {
    starts.push(expectedStart);
  }

  const forward = compilePattern(exact);
  const backward = compilePattern(exact, true);
  const found: FuzzyMatch[] = [];
  const add = (start: number, end: number, edits: number) => {
    if (end <= start || found.some((match) => match.start === start && match.end === end)) return;
    found.push({
      start,
      end,
      quoteSimilarity: 1 - edits / length,
      context: contextSimilarity(text, start, end, context),
    });
  };
  if (length < SANDWICHED_QUOTE && maxEdits > 0) {
    for (const match of sandwiched(text, exact, context, maxEdits, area))
      add(match.start, match.end, match.edits);
  }
  for (const expected of starts) {
    const from = Math.max(0, expected - slack);
    const to = Math.min(text.length, expected + length + slack);
    if (to <= from) continue;
    const ending = bestMatch(forward, text, from, to, { target: expected + length });
    if (ending.distance > maxEdits) continue;
    const end = bestBy(ending.ties, (offset) => suffixSimilarity(text, offset, context), true);
    const starting = bestMatch(backward, text, from, end, {
      backward: true,
      anchored: true,
      target: end - length,
    });
    if (starting.distance > maxEdits) continue;
    const start = bestBy(starting.ties, (offset) => prefixSimilarity(text, offset, context), false);
    add(start, end, starting.distance);
  }
  return found;
}
