// How well a candidate range's surroundings agree with a highlight's stored prefix and suffix.
import { bestMatch, type CompiledPattern, compilePattern } from './edit-distance.ts';

export interface QuoteContext {
  prefix: string;
  suffix: string;
  prefixPattern: () => CompiledPattern;
  suffixPattern: () => CompiledPattern;
}

export interface ContextSimilarity {
  prefix: number;
  suffix: number;
}

export function quoteContext(prefix: string, suffix: string): QuoteContext {
  let prefixPattern: CompiledPattern | undefined;
  let suffixPattern: CompiledPattern | undefined;
  return {
    prefix,
    suffix,
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
  return { prefix: prefixSimilarity(text, start, context), suffix: suffixSimilarity(text, end, context) };
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

export function averageContext(similarity: ContextSimilarity): number {
  return (similarity.prefix + similarity.suffix) / 2;
}

/** The confidence reported with an anchored highlight. */
export function anchorScore(quoteSimilarity: number, context: ContextSimilarity): number {
  return 0.5 * quoteSimilarity + 0.25 * context.prefix + 0.25 * context.suffix;
}
