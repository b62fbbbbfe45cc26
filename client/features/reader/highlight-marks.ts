// Paints highlights into the rendered article: every text node a highlight covers is wrapped in
// <mark data-highlight-id> (nested where highlights overlap), image highlights mark their <img>.
// The text itself never changes, so offsets from textIndex() stay valid across repaints.
import { anchor } from '../../../src/anchoring/anchor.ts';
import { type TextIndex, textIndex } from '../../../src/anchoring/dom.ts';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import { highlightColours, styleClass } from '../highlights/highlight-look.ts';

/** What painting a highlight reads of it. */
type PaintableHighlight = Pick<Highlight, 'id' | 'slotId' | 'style' | 'selectors' | 'imageUrl'>;

/** Where each highlight landed: text offsets (images: the offset just before the image). */
export interface Placement {
  start: number;
  end: number;
}

const MARK_SELECTOR = 'mark[data-highlight-id]';
const IMAGE_SELECTOR = 'img[data-highlight-id]';

/** Removes every mark (keeping its text) and image marking; the DOM is as first rendered again. */
function clearHighlights(root: HTMLElement): void {
  const marks = root.querySelectorAll(MARK_SELECTOR);
  if (marks.length) {
    for (const mark of marks) mark.replaceWith(...mark.childNodes);
    root.normalize();
  }
  for (const image of root.querySelectorAll<HTMLElement>(IMAGE_SELECTOR)) {
    image.removeAttribute('data-highlight-id');
    image.classList.remove('hl-image');
    image.style.removeProperty('--hl-strong');
    image.style.removeProperty('--hl-light');
  }
}

interface Span extends Placement {
  highlight: PaintableHighlight;
}

/** Per text node: its node-backed characters as (offset in node, text offset), ascending. */
function backedUnitsByNode(index: TextIndex): Map<number, { inNode: number[]; text: number[] }> {
  const byNode = new Map<number, { inNode: number[]; text: number[] }>();
  for (let offset = 0; offset < index.text.length; offset++) {
    const node = index.unitNodes[offset]!;
    if (node < 0) continue;
    const entry = byNode.get(node) ?? { inNode: [], text: [] };
    byNode.set(node, entry);
    entry.inNode.push(index.unitOffsets[offset]!);
    entry.text.push(offset);
  }
  return byNode;
}

function decorate(element: HTMLElement, highlight: PaintableHighlight): void {
  element.dataset.highlightId = highlight.id;
  for (const [name, value] of Object.entries(highlightColours(highlight.slotId)))
    element.style.setProperty(name, value);
}

function paintText(index: TextIndex, spans: Span[]): void {
  if (!spans.length) return;
  const units = backedUnitsByNode(index);
  // Split points: before the first character of each span and right after its last one.
  const cuts = new Map<number, Set<number>>();
  const addCut = (textOffset: number, after: boolean) => {
    const node = index.unitNodes[textOffset]!;
    if (node < 0) return;
    const at = index.unitOffsets[textOffset]! + (after ? 1 : 0);
    const set = cuts.get(node) ?? new Set<number>();
    cuts.set(node, set);
    set.add(at);
  };
  for (const span of spans) {
    addCut(span.start, false);
    addCut(span.end - 1, true);
  }
  const covering = (textOffset: number) => spans.filter((s) => s.start <= textOffset && textOffset < s.end);
  for (const [nodeIndex, entry] of units) {
    const original = index.nodes[nodeIndex]!;
    const bounds = [0, ...[...(cuts.get(nodeIndex) ?? [])].sort((a, b) => a - b), original.data.length];
    // Pieces from the end, so the offsets of earlier ones stay valid while splitting.
    const rest: Text = original;
    const pieces: { node: Text; from: number; to: number }[] = [];
    for (let i = bounds.length - 2; i >= 0; i--) {
      const from = bounds[i]!;
      const to = bounds[i + 1]!;
      if (to <= from) continue;
      const piece = from > 0 ? rest.splitText(from) : rest;
      pieces.push({ node: piece, from, to });
    }
    for (const { node, from, to } of pieces) {
      const k = entry.inNode.findIndex((inNode) => inNode >= from && inNode < to);
      if (k < 0) continue;
      const over = covering(entry.text[k]!);
      if (!over.length || !node.parentNode) continue;
      // Longest (earliest) highlight outermost, so nesting follows the overlap.
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
  }
}

function sameImage(image: HTMLImageElement, url: string): boolean {
  return image.currentSrc === url || image.src === url;
}

/**
 * Clears old marks, then places and paints `highlights`. Text highlights are anchored against the
 * note's text (position, then quote, then fuzzy); what cannot be placed is left out of the map.
 */
export function paintHighlights(
  root: HTMLElement,
  highlights: readonly PaintableHighlight[],
): Map<string, Placement> {
  clearHighlights(root);
  const index = textIndex(root);
  const placements = new Map<string, Placement>();
  const spans: Span[] = [];
  for (const highlight of highlights) {
    if (!highlight.selectors) continue;
    const result = anchor(index.text, highlight.selectors);
    if (result.status === 'detached' || result.end <= result.start) continue;
    spans.push({ start: result.start, end: result.end, highlight });
    placements.set(highlight.id, { start: result.start, end: result.end });
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const images = [...root.querySelectorAll('img')];
  for (const highlight of highlights) {
    if (highlight.selectors || !highlight.imageUrl) continue;
    const image = images.find((img) => sameImage(img, highlight.imageUrl as string));
    if (!image) continue;
    image.classList.add('hl-image');
    decorate(image, highlight);
    placements.set(highlight.id, imageOffset(root, index, image));
  }
  paintText(index, spans);
  return placements;
}

/** The text offset at an image (for reading order). */
function imageOffset(root: HTMLElement, index: TextIndex, image: Element): Placement {
  const before = document.createRange();
  before.setStart(root, 0);
  before.setEndBefore(image);
  const raw = before.toString().length;
  let k = 0;
  while (k < index.backedRawOffsets.length && index.backedRawOffsets[k]! < raw) k++;
  const start = k < index.backedOffsets.length ? index.backedOffsets[k]! : index.text.length;
  return { start, end: start };
}

/** Every painted element of a highlight, in document order. */
export function highlightElements(root: HTMLElement, id: string): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(`[data-highlight-id="${CSS.escape(id)}"]`)];
}
