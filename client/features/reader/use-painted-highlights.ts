import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import { createMarkPainter } from './highlight-marks.ts';
import { createRangePainter, supportsHighlightApi } from './highlight-ranges.ts';
import { type HighlightPainter, NOTHING_PAINTED, type PaintedHighlights } from './painted-highlights.ts';

/** The CSS Custom Highlight API's painter where the browser has it, <mark> elements otherwise. */
function createHighlightPainter(): HighlightPainter {
  return supportsHighlightApi() ? createRangePainter() : createMarkPainter();
}

/**
 * Paints `highlights` into the article each time they (or the article) change, on top of the
 * HTML React rendered once, before the browser shows the frame.
 */
export function usePaintedHighlights(
  root: RefObject<HTMLElement | null>,
  contentHtml: string | undefined,
  highlights: readonly Highlight[],
): PaintedHighlights {
  const [painted, setPainted] = useState(NOTHING_PAINTED);
  const painter = useRef<HighlightPainter | null>(null);
  useLayoutEffect(() => {
    const element = root.current;
    if (!element || !contentHtml) return;
    painter.current ??= createHighlightPainter();
    setPainted(painter.current.paint(element, contentHtml, highlights));
  }, [root, contentHtml, highlights]);
  useEffect(() => () => painter.current?.clear(), []);
  return painted;
}
