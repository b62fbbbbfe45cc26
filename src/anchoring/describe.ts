import { snapEndToGrapheme, snapStartToGrapheme } from './graphemes.ts';
import type { HighlightSelectors } from './types.ts';

const DEFAULT_CONTEXT_LENGTH = 32;

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, Math.trunc(value) || 0));
}

/**
 * Builds the selectors for text[start, end) (UTF-16 code units). The range is widened to whole
 * grapheme clusters; prefix and suffix hold up to `contextLength` code units and never begin or end
 * inside a cluster.
 */
export function describeRange(
  text: string,
  start: number,
  end: number,
  contextLength: number = DEFAULT_CONTEXT_LENGTH,
): HighlightSelectors {
  const low = clamp(Math.min(start, end), 0, text.length);
  const high = clamp(Math.max(start, end), 0, text.length);
  const rangeStart = snapStartToGrapheme(text, low);
  const rangeEnd = snapEndToGrapheme(text, high);
  const context = Math.max(0, Math.trunc(contextLength));
  const prefixStart = snapEndToGrapheme(text, Math.max(0, rangeStart - context));
  const suffixEnd = snapStartToGrapheme(text, Math.min(text.length, rangeEnd + context));
  return {
    quote: {
      type: 'TextQuoteSelector',
      exact: text.slice(rangeStart, rangeEnd),
      prefix: text.slice(prefixStart, rangeStart),
      suffix: text.slice(rangeEnd, Math.max(rangeEnd, suffixEnd)),
    },
    position: { type: 'TextPositionSelector', start: rangeStart, end: rangeEnd },
  };
}
