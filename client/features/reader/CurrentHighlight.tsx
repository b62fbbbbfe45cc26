import { type RefObject, useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { highlightVars } from '../highlights/highlight-look.ts';
import { highlightRects, type PaintedHighlights } from './painted-highlights.ts';

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** One box per line: the pieces a line breaks into (runs of another direction, other elements). */
function lineBoxes(rects: DOMRect[], origin: { left: number; top: number }): Box[] {
  const boxes: Box[] = [];
  for (const rect of [...rects].sort((a, b) => a.top - b.top || a.left - b.left)) {
    const box = {
      left: rect.left - origin.left,
      top: rect.top - origin.top,
      width: rect.width,
      height: rect.height,
    };
    const last = boxes.at(-1);
    if (last && Math.abs(last.top - box.top) < 2 && box.left <= last.left + last.width + 2) {
      const right = Math.max(last.left + last.width, box.left + box.width);
      last.top = Math.min(last.top, box.top);
      last.height = Math.max(last.height, box.height);
      last.width = right - last.left;
    } else boxes.push(box);
  }
  return boxes;
}

/**
 * A ring around each line of the highlight the keys moved to (a range painted by the Highlight
 * API has no element to style), laid in the article beside its text, so it moves with the article;
 * measured again when the text reflows (typography, window width).
 */
export function CurrentHighlight({
  id,
  painted,
  root,
}: {
  id: string;
  painted: PaintedHighlights;
  root: RefObject<HTMLElement | null>;
}) {
  const [boxes, setBoxes] = useState<Box[]>([]);
  const article = root.current?.parentElement;
  useLayoutEffect(() => {
    const content = root.current;
    const container = content?.parentElement;
    if (!content || !container) return;
    const measure = () => {
      const range = painted.rangeOf(id);
      const frame = container.getBoundingClientRect();
      const origin = { left: frame.left + container.clientLeft, top: frame.top + container.clientTop };
      setBoxes(range ? lineBoxes(highlightRects(range), origin) : []);
    };
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(content);
    // Justification or a face of the same size moves the text without resizing the article.
    const restyled = new MutationObserver(measure);
    const reader = container.closest('.reader');
    if (reader)
      restyled.observe(reader, { attributes: true, attributeFilter: ['style', 'data-font', 'data-justify'] });
    return () => {
      resized.disconnect();
      restyled.disconnect();
    };
  }, [id, painted, root]);
  if (!article) return null;
  const slot = painted.placements.get(id)?.slotId ?? 1;
  return createPortal(
    boxes.map((box) => (
      <div
        key={`${box.left},${box.top}`}
        className="hl-current-box"
        data-testid="current-highlight"
        data-highlight-id={id}
        style={{ ...highlightVars(slot), ...box }}
      />
    )),
    article,
  );
}
