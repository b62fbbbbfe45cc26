import { type RefObject, useEffect, useRef } from 'react';
import { useSearch } from 'wouter';
import { flashHighlight, highlightInView } from './flash.ts';
import type { Placement } from './highlight-marks.ts';

/** Images may arrive without a reserved size; how long late loads may still move the target. */
const SETTLE_MS = 3000;

/** `?nx=<highlight id>` next to `?pi=`: once that highlight is painted, scroll to it and flash it. */
export function HighlightDeepLink({
  root,
  placements,
}: {
  root: RefObject<HTMLElement | null>;
  placements: ReadonlyMap<string, Placement>;
}) {
  const highlightId = new URLSearchParams(useSearch()).get('nx');
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const element = root.current;
    if (!highlightId || !element || shown.current === highlightId || !placements.has(highlightId)) return;
    shown.current = highlightId;
    // After the reader's own open-at-top scroll, which runs later in this same commit.
    const timer = setTimeout(() => flashHighlight(element, highlightId), 0);
    // An image loading above the highlight pushes it down: bring it back into view.
    const onLoad = () => {
      if (!highlightInView(element, highlightId)) flashHighlight(element, highlightId, { flash: false });
    };
    element.addEventListener('load', onLoad, true);
    const settle = setTimeout(() => element.removeEventListener('load', onLoad, true), SETTLE_MS);
    return () => {
      clearTimeout(timer);
      clearTimeout(settle);
      element.removeEventListener('load', onLoad, true);
    };
  }, [highlightId, root, placements]);
  return null;
}
