// How well a candidate range's surroundings agree with a highlight's stored prefix and suffix.
import { bestMatch, type CompiledPattern, compilePattern } from './edit-distance.ts';

export interface QuoteContext {
  prefix: string;
  suffix: string;
  /** The end of the prefix after its last line break: the part in the quote's own block. */
  nearPrefix: string;
  /** The start of the suffix before its first line break. */
  nearSuffix: string;
  prefixPattern: () => CompiledPattern;
  suffixPattern: () => CompiledPattern;
}

export interface ContextSimilarity {
  prefix: number;
  suffix: number;
  /**
   * When the stored side's part in the quote's own block (all of it if it crosses no line break)
   * stands unchanged next to the range, and the block still ends where it did: that part's length;
   * otherwise -1. Context past a block's edge tells little: blocks are inserted and reordered.
   */
  prefixIntact: number;
  suffixIntact: number;
}

export function quoteContext(
  prefix: string,
  suffix: string,
  nearPrefix = prefix,
  nearSuffix = suffix,
): QuoteContext {
  let prefixPattern: CompiledPattern | undefined;
  let suffixPattern: CompiledPattern | undefined;
  return {
    prefix,
    suffix,
    nearPrefix,
    nearSuffix,
    prefixPattern: () => {
      prefixPattern ??= compilePattern(prefix, true);
      return prefixPattern;
    },
    suffixPattern: () => {
      suffixPattern ??= compilePattern(suffix);
      return suffixPattern;
    },
  };
}

/** Extra room so context that grew (insertions inside it) is still compared whole. */
function contextSlack(length: number): number {
  return 4 + (length >>> 1);
}

/**
 * Similarity in 0..1 of each stored context side to the text around [start, end): 1 - the edit
 * distance between the stored prefix and the text ending at `start` (and the stored suffix and the
 * text starting at `end`) over its length. An empty stored side carries no information and is 1.
 */
export function contextSimilarity(
  text: string,
  start: number,
  end: number,
  context: QuoteContext,
): ContextSimilarity {
  return {
    prefix: prefixSimilarity(text, start, context),
    suffix: suffixSimilarity(text, end, context),
    prefixIntact: intactPrefix(text, start, context),
    suffixIntact: intactSuffix(text, end, context),
  };
}

const isBlockEdge = (text: string, at: number): boolean =>
  at <= 0 || at >= text.length || /\s/.test(text[at]!);

function intactPrefix(text: string, start: number, { prefix, nearPrefix }: QuoteContext): number {
  const from = start - nearPrefix.length;
  if (from < 0 || !text.startsWith(nearPrefix, from)) return -1;
  return nearPrefix.length === prefix.length || isBlockEdge(text, from - 1) ? nearPrefix.length : -1;
}

function intactSuffix(text: string, end: number, { suffix, nearSuffix }: QuoteContext): number {
  if (!text.startsWith(nearSuffix, end)) return -1;
  const blockEnds = nearSuffix.length === suffix.length || isBlockEdge(text, end + nearSuffix.length);
  return blockEnds ? nearSuffix.length : -1;
}

export function prefixSimilarity(text: string, start: number, context: QuoteContext): number {
  const length = context.prefix.length;
  if (length === 0) return 1;
  if (start >= length && text.startsWith(context.prefix, start - length)) return 1;
  const from = Math.max(0, start - length - contextSlack(length));
  const match = bestMatch(context.prefixPattern(), text, from, start, { backward: true, anchored: true });
  return 1 - match.distance / length;
}

export function suffixSimilarity(text: string, end: number, context: QuoteContext): number {
  const length = context.suffix.length;
  if (length === 0) return 1;
  if (text.startsWith(context.suffix, end)) return 1;
  const to = Math.min(text.length, end + length + contextSlack(length));
  return 1 - bestMatch(context.suffixPattern(), text, end, to, { anchored: true }).distance / length;
}
