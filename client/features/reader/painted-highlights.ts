// What the reader knows about the highlights painted in its article, whichever painter drew them:
// the CSS Custom Highlight API where the browser has it, <mark> elements otherwise.
import type { Placement } from './highlight-placement.ts';
import type { PaintableHighlight } from './highlight-spans.ts';

export interface PaintedHighlights {
  /** Where each placed highlight landed; a text highlight missing here could not be placed. */
  placements: ReadonlyMap<string, Placement>;
  /** The highlight drawn at a viewport point (the innermost where several overlap), if any. */
  idAt(x: number, y: number, target: EventTarget | null): string | undefined;
  /** A live Range over a painted highlight's text (or its image). */
  rangeOf(id: string): Range | undefined;
  /** Shows a highlight as the one under the pointer, or none. */
  hover(id: string | undefined): void;
}

export interface HighlightPainter {
  /** Paints `highlights` into `root` (which shows `content`), replacing what it painted before. */
  paint(root: HTMLElement, content: string, highlights: readonly PaintableHighlight[]): PaintedHighlights;
  /** Takes down what outlives the article (registered highlights). */
  clear(): void;
}

export const NOTHING_PAINTED: PaintedHighlights = {
  placements: new Map(),
  idAt: () => undefined,
  rangeOf: () => undefined,
  hover() {},
};

/** The boxes of a highlight's text on screen, one per line fragment (an image: its box). */
export function highlightRects(range: Range): DOMRect[] {
  const rects: DOMRect[] = [];
  const walker = document.createTreeWalker(range.commonAncestorContainer, NodeFilter.SHOW_TEXT);
  walker.currentNode = range.startContainer;
  const first = range.startContainer.nodeType === Node.TEXT_NODE ? range.startContainer : walker.nextNode();
  const part = document.createRange();
  for (let node = first; node; node = walker.nextNode()) {
    if (!range.intersectsNode(node)) {
      if (range.comparePoint(node, 0) > 0) break;
      continue;
    }
    part.selectNodeContents(node);
    if (node === range.startContainer) part.setStart(node, range.startOffset);
    if (node === range.endContainer) part.setEnd(node, range.endOffset);
    for (const rect of part.getClientRects()) if (rect.width > 0 && rect.height > 0) rects.push(rect);
  }
  return rects.length ? rects : [range.getBoundingClientRect()];
}
