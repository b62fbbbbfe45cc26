import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  innermostAt,
  type PaintableHighlight,
  type Span,
  sortSpans,
  spansAt,
} from '../../client/features/reader/highlight-spans.ts';

const paintable = (id: string): PaintableHighlight => ({
  id,
  slotId: 1,
  style: 1,
  selectors: null,
  imageUrl: null,
});
const span = (id: string, start: number, end: number): Span => ({ start, end, highlight: paintable(id) });

describe('placed highlights as sorted spans', () => {
  test('the spans at an offset, outermost first; the innermost is the one a click means', () => {
    const sorted = sortSpans([span('inner', 12, 16), span('outer', 10, 30), span('later', 20, 40)]);
    expect(spansAt(sorted, 13).map((s) => s.highlight.id)).toEqual(['outer', 'inner']);
    expect(innermostAt(sorted, 25)?.highlight.id).toBe('later');
    expect(innermostAt(sorted, 16)?.highlight.id).toBe('outer');
    expect(innermostAt(sorted, 40)).toBeUndefined();
    expect(innermostAt(sorted, 9)).toBeUndefined();
  });

  test('equal starts: the shorter span is inside the longer one', () => {
    const sorted = sortSpans([span('short', 5, 8), span('long', 5, 20)]);
    expect(spansAt(sorted, 6).map((s) => s.highlight.id)).toEqual(['long', 'short']);
  });

  test('agrees with checking every span, for any set of spans', () => {
    const spanArbitrary = fc
      .tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 80 }))
      .map(([start, length]) => [start, start + length] as const);
    fc.assert(
      fc.property(
        fc.array(spanArbitrary, { maxLength: 40 }),
        fc.integer({ min: 0, max: 300 }),
        (ranges, at) => {
          const spans = ranges.map(([start, end], i) => span(String(i), start, end));
          const sorted = sortSpans([...spans]);
          const expected = sorted.spans.filter((s) => s.start <= at && at < s.end);
          expect(spansAt(sorted, at)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
