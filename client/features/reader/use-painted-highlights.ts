import { type RefObject, useLayoutEffect, useState } from 'react';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import { type Placement, paintHighlights } from './highlight-marks.ts';

const NONE: ReadonlyMap<string, Placement> = new Map();

/**
 * Paints `highlights` into the article each time they (or the article) change, on top of the
 * HTML React rendered once. Returns where each one landed; a text highlight missing from the map
 * could not be placed.
 */
export function usePaintedHighlights(
  root: RefObject<HTMLElement | null>,
  contentHtml: string | undefined,
  highlights: readonly Highlight[],
): ReadonlyMap<string, Placement> {
  const [placements, setPlacements] = useState(NONE);
  useLayoutEffect(() => {
    const element = root.current;
    if (!element || !contentHtml) return;
    setPlacements(paintHighlights(element, highlights));
  }, [root, contentHtml, highlights]);
  return placements;
}
