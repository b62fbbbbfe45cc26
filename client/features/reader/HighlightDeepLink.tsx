import { type RefObject, useEffect, useRef } from 'react';
import { useSearch } from 'wouter';
import { flashHighlight, highlightInView } from './flash.ts';
import type { PaintedHighlights } from './painted-highlights.ts';

/** Images may arrive without a reserved size; how long late loads may still move the target. */
const SETTLE_MS = 3000;

/** `?nx=<highlight id>` next to `?pi=`: once that highlight is painted, scroll to it and flash it. */
export function HighlightDeepLink({
  root,
  painted,
}: {
  root: RefObject<HTMLElement | null>;
  painted: PaintedHighlights;
}) {
  const highlightId = new URLSearchParams(useSearch()).get('nx');
  const shown = useRef<string | null>(null);
  // Later repaints keep the highlight where it is; the latest one is asked where that is.
  const latest = useRef(painted);
  latest.current = painted;
  const placed = highlightId !== null && painted.placements.has(highlightId);
  useEffect(() => {
    const element = root.current;
    if (!highlightId || !element || shown.current === highlightId || !placed) return;
    shown.current = highlightId;
    // After the reader's own open-at-top scroll, which runs later in this same commit.
    const timer = setTimeout(() => flashHighlight(latest.current, highlightId), 0);
    // An image loading above the highlight pushes it down: bring it back into view.
    const onLoad = () => {
      if (!highlightInView(latest.current, highlightId))
        flashHighlight(latest.current, highlightId, { flash: false });
    };
    element.addEventListener('load', onLoad, true);
    const settle = setTimeout(() => element.removeEventListener('load', onLoad, true), SETTLE_MS);
    return () => {
      clearTimeout(timer);
      clearTimeout(settle);
      element.removeEventListener('load', onLoad, true);
    };
  }, [highlightId, root, placed]);
  return null;
}
