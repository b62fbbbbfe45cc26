// The one rule every candidate place for a highlight is judged by, whether its text matches the
// quote exactly or approximately: how much of the quote is there, how well the text around it
// agrees with the stored prefix and suffix, and how far it is from where the highlight was
// expected. A place is accepted only when its context agrees enough for a quote of its length
// and similarity; otherwise the highlight is reported lost rather than put somewhere else.
import type { ContextSimilarity, QuoteContext } from './context.ts';

export interface Candidate {
  start: number;
  end: number;
  /** 1 - edits / quote length, on normalised text; 1 for an exact occurrence. */
  quoteSimilarity: number;
  context: ContextSimilarity;
  /** `contextAgreement` of `context`. */
  agreement: number;
  /** Code units (of normalised text) between the candidate's start and where it was expected. */
  distance: number;
}

/** Lowest quote similarity at which a place can be accepted on its quote. */
export const MIN_QUOTE_SIMILARITY = 0.75;
/** A stored context side this long or longer, found intact on its own, speaks for the place. */
const MIN_TELLING_SIDE = 16;
/** Both sides intact (within the quote's block) speak for the place when this long together. */
const MIN_TELLING_SIDES = 12;
/** The agreement intact context is worth when the rest of it was edited. */
const INTACT = 0.95;
/** Distance beyond which a place gets the whole distance penalty. */
const FAR = 4096;
const DISTANCE_WEIGHT = 0.1;
/** Places whose scores differ by less than this cannot be told apart by their text. */
const AMBIGUOUS = 0.005;

/** The confidence reported with an anchored highlight: half quote, a quarter each side. */
export function anchorScore(quoteSimilarity: number, context: ContextSimilarity): number {
  return 0.5 * quoteSimilarity + 0.25 * context.prefix + 0.25 * context.suffix;
}

/**
 * How well the surroundings agree, 0..1: the two sides' similarities weighted by their stored
 * lengths (an empty side, at the start or end of the page, tells nothing), or a little less than
 * full when the context is intact where it counts and edited past that: one long side intact (a
 * paragraph inserted right after), or both sides intact up to the edges of the quote's own block
 * (paragraphs reordered). Only intact context counts this way: a place that took its text from
 * its neighbour (the quote deleted, the same letters just before) has both sides nearly right.
 */
export function contextAgreement(similarity: ContextSimilarity, context: QuoteContext): number {
  const prefixWeight = context.prefix.length;
  const suffixWeight = context.suffix.length;
  const weight = prefixWeight + suffixWeight;
  if (weight === 0) return 1;
  const average = (similarity.prefix * prefixWeight + similarity.suffix * suffixWeight) / weight;
  const { prefixIntact, suffixIntact } = similarity;
  const intact =
    prefixIntact >= MIN_TELLING_SIDE ||
    suffixIntact >= MIN_TELLING_SIDE ||
    (prefixIntact >= 0 && suffixIntact >= 0 && prefixIntact + suffixIntact >= MIN_TELLING_SIDES);
  return intact ? Math.max(average, INTACT) : average;
}

/**
 * The context agreement a place needs: a short quote occurs by chance and needs its context
 * (a 4-character one nearly all of it), a 300-character one carries itself; every edit inside the
 * quote asks for more. A short quote with one character changed (similarity under the usual
 * minimum) is taken only where both sides of its context are intact.
 */
export function requiredAgreement(quoteLength: number, quoteSimilarity: number): number {
  if (quoteSimilarity < MIN_QUOTE_SIMILARITY) return 1;
  const byLength = Math.min(0.93, Math.max(0, 0.9 - 0.15 * Math.log2(Math.max(1, quoteLength) / 8)));
  return Math.min(1, byLength + 1.5 * (1 - quoteSimilarity));
}

/** Most edits a fuzzy match of a quote this long may have: a quarter of it, one for 2–3 units. */
export function maxQuoteEdits(quoteLength: number): number {
  return quoteLength < 2 ? 0 : Math.max(1, Math.floor(quoteLength * (1 - MIN_QUOTE_SIMILARITY)));
}

const EPSILON = 1e-9;

export function isAcceptable(candidate: Candidate, quoteLength: number): boolean {
  return candidate.agreement >= requiredAgreement(quoteLength, candidate.quoteSimilarity) - EPSILON;
}

/** The quote's own block (its paragraph, its line) is unchanged on both sides of the place. */
const blockIntact = (candidate: Candidate): boolean =>
  candidate.context.prefixIntact >= 0 && candidate.context.suffixIntact >= 0;

/**
 * The order among accepted places: the score, less a little for distance from the expected
 * place, plus as much again when the quote's own block is intact around it (blocks move as a whole,
 * so that outweighs the distance).
 */
export function rank(candidate: Candidate): number {
  return (
    anchorScore(candidate.quoteSimilarity, candidate.context) -
    DISTANCE_WEIGHT * Math.min(1, candidate.distance / FAR) +
    (blockIntact(candidate) ? DISTANCE_WEIGHT : 0)
  );
}

/** Where the highlight's own context still stands, with whatever is now between its sides. */
export interface Site {
  start: number;
  end: number;
}

export const overlaps = (a: Site, b: Site): boolean => a.start < b.end && b.start < a.end;

/**
 * Two places the text cannot tell apart: they score alike, or both stand in an intact copy of the
 * quote's block, where only context past the block's edge (which moves freely) could differ.
 */
function indistinguishable(a: Candidate, b: Candidate): boolean {
  if (
    Math.abs(anchorScore(a.quoteSimilarity, a.context) - anchorScore(b.quoteSimilarity, b.context)) <
    AMBIGUOUS
  ) {
    return true;
  }
  return blockIntact(a) && blockIntact(b) && a.quoteSimilarity === b.quoteSimilarity;
}

/**
 * The accepted candidate with the best rank, or undefined when there is none. When the
 * highlight's own place still stands (`site`), only a candidate there counts: a copy of the quote
 * elsewhere is not where it was. When another place is indistinguishable and the best is not at
 * the expected place, nothing says which copy of the repeated text it was.
 */
export function choose(
  candidates: readonly Candidate[],
  quoteLength: number,
  site?: Site,
): Candidate | undefined {
  const accepted = candidates.filter(
    (candidate) => isAcceptable(candidate, quoteLength) && (!site || overlaps(candidate, site)),
  );
  let best: Candidate | undefined;
  for (const candidate of accepted) if (!best || rank(candidate) > rank(best)) best = candidate;
  // Exactly at the expected place, a tie is no tie: that is where it was (or where the shift of
  // its neighbours puts it).
  if (!best || best.distance === 0) return best;
  const chosen = best;
  const tied = accepted.some(
    (candidate) => !overlaps(candidate, chosen) && indistinguishable(candidate, chosen),
  );
  return tied ? undefined : best;
}
