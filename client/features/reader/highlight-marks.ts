// The fallback painter, for browsers without the CSS Custom Highlight API: every text node a
// highlight covers is wrapped in <mark data-highlight-id> (nested where highlights overlap). The
// text itself never changes, so offsets from textIndex() stay valid across repaints.
import { type TextIndex, textIndex } from '../../../src/anchoring/dom.ts';
import { lowerBound } from '../../../src/sorted-search.ts';
import { styleClass } from '../highlights/highlight-look.ts';
import {
  clearImages,
  decorate,
  markImages,
  paintedElementId,
  paintedElementsRange,
  placeHighlights,
} from './highlight-placement.ts';
import { type SortedSpans, spansAt } from './highlight-spans.ts';
import { measured } from './paint-timing.ts';
import type { HighlightPainter, PaintedHighlights } from './painted-highlights.ts';

const MARK_SELECTOR = 'mark[data-highlight-id]';

/** Removes every mark (keeping its text); the text nodes are as first rendered again. */
function clearMarks(root: HTMLElement): void {
  const marks = root.querySelectorAll(MARK_SELECTOR);
  if (!marks.length) return;
  for (const mark of marks) mark.replaceWith(...mark.childNodes);
  root.normalize();
}

/** The text offset of the first character of node[from, to) the text keeps, or -1. */
function firstTextOffset(index: TextIndex, node: number, from: number, to: number): number {
  const rawStart = index.nodeStarts[node]! + from;
  const rawEnd = index.nodeStarts[node]! + to;
  const first = lowerBound(index.backedRawOffsets, rawStart);
  return first < index.backedRawOffsets.length && index.backedRawOffsets[first]! < rawEnd
    ? index.backedOffsets[first]!
    : -1;
}

function paintMarks(index: TextIndex, sorted: SortedSpans): void {
  if (!sorted.spans.length) return;
  // Split points per node: before the first character of each span and right after its last one.
  const cuts = new Map<number, Set<number>>();
  const addCut = (textOffset: number, after: boolean) => {
    const node = index.unitNodes[textOffset]!;
    if (node < 0) return;
    const at = index.unitOffsets[textOffset]! + (after ? 1 : 0);
    const set = cuts.get(node) ?? new Set<number>();
    cuts.set(node, set);
    set.add(at);
  };
  for (const span of sorted.spans) {
    addCut(span.start, false);
    addCut(span.end - 1, true);
  }
  index.nodes.forEach((original, nodeIndex) => {
    const bounds = [0, ...[...(cuts.get(nodeIndex) ?? [])].sort((a, b) => a - b), original.data.length];
    // Pieces from the end, so the offsets of earlier ones stay valid while splitting.
    const pieces: { node: Text; from: number; to: number }[] = [];
    for (let i = bounds.length - 2; i >= 0; i--) {
      const from = bounds[i]!;
      const to = bounds[i + 1]!;
      if (to <= from) continue;
      const piece = from > 0 ? original.splitText(from) : original;
      pieces.push({ node: piece, from, to });
    }
    for (const { node, from, to } of pieces) {
      const textOffset = firstTextOffset(index, nodeIndex, from, to);
      if (textOffset < 0 || !node.parentNode) continue;
      const over = spansAt(sorted, textOffset);
      if (!over.length) continue;
      // Outermost first, so nesting follows the overlap.
      let inner: Node = node;
      const parent = node.parentNode;
      const next = node.nextSibling;
      for (let i = over.length - 1; i >= 0; i--) {
        const span = over[i]!;
        const mark = document.createElement('mark');
        mark.className = `hl ${styleClass(span.highlight.style)}`;
        decorate(mark, span.highlight);
        mark.appendChild(inner);
        inner = mark;
      }
      parent.insertBefore(inner, next);
    }
  });
}

export function createMarkPainter(): HighlightPainter {
  return {
    paint(root, _content, highlights): PaintedHighlights {
      const { index, placed } = measured('highlights:anchor', () => {
        clearMarks(root);
        clearImages(root);
        const index = textIndex(root);
        return { index, placed: placeHighlights(root, index, highlights) };
      });
      measured('highlights:paint', () => {
        paintMarks(index, placed.text);
        markImages(placed.images);
      });
      return {
        placements: placed.placements,
        idAt: (_x, _y, target) => paintedElementId(root, target),
        rangeOf: (id) => paintedElementsRange(root, id),
        // Marks show their hover state with CSS.
        hover() {},
      };
    },
    clear() {},
  };
}
