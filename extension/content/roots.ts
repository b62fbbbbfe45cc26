import { offsetsFromRange, rangeFromOffsets, type TextIndex, textIndex } from '../../src/anchoring/dom.ts';
import { anchor, describeRange, snapToWords } from '../../src/anchoring/index.ts';
import type { Selectors } from '../../src/schemas/highlights.ts';

// The live page's text, as the reader's anchoring sees an article: the body, and each open
// shadow root as a text of its own (a shadow tree's text is not in its host's). Built on demand
// (a selection, highlights to place) and again after the page changed.

export type TextRoot = Element | ShadowRoot;

/** The UI's own host: its shadow root is closed, and it is never page text. */
export const UI_HOST_TAG = 'margin-highlighter';

function shadowRootsUnder(root: ParentNode, found: ShadowRoot[]) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const shadow = (node as Element).shadowRoot;
    if (shadow && (node as Element).localName !== UI_HOST_TAG) {
      found.push(shadow);
      shadowRootsUnder(shadow, found);
    }
  }
  return found;
}

export function textRoots(): TextRoot[] {
  const body = document.body;
  if (!body) return [];
  return [body, ...shadowRootsUnder(body, [])];
}

let cached: Map<TextRoot, TextIndex> | null = null;
/** Forgets the built texts: the page changed. */
export function pageChanged() {
  cached = null;
}
function indexOf(root: TextRoot): TextIndex {
  cached ??= new Map();
  let index = cached.get(root);
  if (!index) {
    index = textIndex(root);
    cached.set(root, index);
  }
  return index;
}

/** Where a highlight is on the page now: position first, then the quote, then a fuzzy match. */
export function placeOnPage(selectors: Selectors): Range | null {
  for (const root of textRoots()) {
    const index = indexOf(root);
    const result = anchor(index.text, selectors);
    if (result.status === 'detached') continue;
    const range = rangeFromOffsets(root, result.start, result.end, index);
    if (range) return range;
  }
  return null;
}

/** The text root a node belongs to. */
function rootOf(node: Node): TextRoot | null {
  const root = node.getRootNode();
  if (root instanceof ShadowRoot) return root;
  return document.body?.contains(node) ? document.body : null;
}

/** The user's selection as one range, looking into open shadow roots where the browser can. */
export function selectedRange(): Range | null {
  const selection = document.getSelection();
  if (!selection || selection.rangeCount === 0) return null;
  // Seen from the document, a selection inside a shadow tree is collapsed at its host: the
  // composed ranges see into the open shadow roots named.
  const composed = (
    selection as Selection & { getComposedRanges?: (o: { shadowRoots: ShadowRoot[] }) => StaticRange[] }
  ).getComposedRanges;
  if (composed) {
    const shadowRoots = textRoots().filter((r): r is ShadowRoot => r instanceof ShadowRoot);
    const [staticRange] = composed.call(selection, { shadowRoots });
    if (staticRange && !staticRange.collapsed) {
      const range = document.createRange();
      range.setStart(staticRange.startContainer, staticRange.startOffset);
      range.setEnd(staticRange.endContainer, staticRange.endOffset);
      return range;
    }
  }
  if (selection.isCollapsed) return null;
  // A copy: the selection's own range follows it when it moves (into the annotation editor).
  return selection.getRangeAt(0).cloneRange();
}

/**
 * The selectors of a range on the page, snapped to whole words as the reader makes them, with
 * the snapped range to paint; null outside page text.
 */
export function describeOnPage(range: Range): { selectors: Selectors; text: string; range: Range } | null {
  const root = rootOf(range.startContainer);
  if (!root || rootOf(range.endContainer) !== root) return null;
  const index = indexOf(root);
  const offsets = offsetsFromRange(root, range, index);
  if (!offsets || offsets.end <= offsets.start) return null;
  const words = snapToWords(index.text, offsets.start, offsets.end);
  if (words.end <= words.start) return null;
  const selectors = describeRange(index.text, words.start, words.end) as Selectors;
  if (!selectors.quote.exact.trim()) return null;
  const { start, end } = selectors.position;
  const snapped =
    start === offsets.start && end === offsets.end ? range : rangeFromOffsets(root, start, end, index);
  return { selectors, text: selectors.quote.exact, range: snapped ?? range };
}
