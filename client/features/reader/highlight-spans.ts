// Placed text highlights as spans of the article text, sorted once so that "which highlights cover
// this offset" is a binary search plus a short walk back, not a scan of every highlight.
import type { Highlight } from '../../../src/schemas/highlights.ts';
import { partitionPoint } from '../../../src/sorted-search.ts';

/** What painting a highlight reads of it. */
export type PaintableHighlight = Pick<Highlight, 'id' | 'slotId' | 'style' | 'selectors' | 'imageUrl'>;

/** A placed text highlight: text[start, end). */
export interface Span {
  start: number;
  end: number;
  highlight: PaintableHighlight;
}

export interface SortedSpans {
  /** By start, the longer first where starts are equal: outermost first, as marks nest. */
  spans: readonly Span[];
  /** maxEnds[i]: the largest end among spans[0..i], which tells the walk back when to stop. */
  maxEnds: Int32Array;
}

export function sortSpans(spans: Span[]): SortedSpans {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const maxEnds = new Int32Array(spans.length);
  let maxEnd = 0;
  spans.forEach((span, i) => {
    maxEnd = Math.max(maxEnd, span.end);
    maxEnds[i] = maxEnd;
  });
  return { spans, maxEnds };
}

/** Every span covering text offset `offset`, outermost first. */
export function spansAt({ spans, maxEnds }: SortedSpans, offset: number): Span[] {
  // From the last span starting at or before the offset.
  const after = partitionPoint(spans.length, (i) => spans[i]!.start <= offset);
  const covering: Span[] = [];
  for (let i = after - 1; i >= 0 && maxEnds[i]! > offset; i--) {
    if (spans[i]!.end > offset) covering.push(spans[i]!);
  }
  return covering.reverse();
}

/** The innermost span at `offset` (the one whose mark would be the click target), if any. */
export function innermostAt(sorted: SortedSpans, offset: number): Span | undefined {
  return spansAt(sorted, offset).at(-1);
}
