// Where the reader is in an article, in terms that survive another screen: the offset, in the
// note's plain text (src/text/dom-text.ts, the text highlights anchor to), of the first character
// on screen below the reader's sticky bars. Another device scrolls that character back to the top.
import { positionAt, type TextIndex, textIndex } from '../../../src/anchoring/dom.ts';

/** Room left above a restored line, so it does not sit flush under the toolbar. */
const LINE_MARGIN = 8;

/** How far down the viewport the sticky top bar and reader toolbar reach. */
export function coveredTop(root: HTMLElement): number {
  const toolbar = root.closest('.reader')?.querySelector('.reader-toolbar');
  return Math.max(0, toolbar?.getBoundingClientRect().bottom ?? 0);
}

function characterRect(range: Range, node: Text, offset: number): DOMRect {
  range.setStart(node, offset);
  range.setEnd(node, Math.min(node.length, offset + 1));
  return range.getBoundingClientRect();
}

/**
 * The text offset of the first character whose line shows below `top` (viewport pixels), found by
 * bisecting the characters: text order is screen order in an article. The text's length when
 * everything is above.
 */
export function firstVisibleOffset(
  root: HTMLElement,
  top: number,
  index: TextIndex = textIndex(root),
): number {
  const { backedOffsets, unitNodes, unitOffsets, nodes } = index;
  const range = document.createRange();
  let low = 0;
  let high = backedOffsets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const offset = backedOffsets[middle]!;
    const rect = characterRect(range, nodes[unitNodes[offset]!]!, unitOffsets[offset]!);
    // A hidden character (the repeated title) has an empty box at 0: it counts as above.
    if (rect.bottom > top) high = middle;
    else low = middle + 1;
  }
  return low < backedOffsets.length ? backedOffsets[low]! : index.text.length;
}

/** The document position (scrollY) that puts the line holding text offset `offset` at the top. */
export function scrollTopFor(root: HTMLElement, offset: number): number | null {
  const index = textIndex(root);
  const position = positionAt(index, offset);
  if (!position) return null;
  const rect = characterRect(document.createRange(), position.node, position.offset);
  if (!rect.width && !rect.height && !rect.top) return null;
  return Math.max(0, rect.top + window.scrollY - coveredTop(root) - LINE_MARGIN);
}

/** How far down the page is scrolled, 0–1; a page that does not scroll is read whole. */
export function scrollFraction(): number {
  const room = document.documentElement.scrollHeight - window.innerHeight;
  if (room <= 0) return 1;
  return Math.min(1, Math.max(0, window.scrollY / room));
}

/** Where the reader is now: what notes.saveProgress keeps. */
export function readingPosition(root: HTMLElement): { offset: number; fraction: number } {
  return {
    offset: firstVisibleOffset(root, coveredTop(root) + LINE_MARGIN / 2),
    fraction: Math.round(scrollFraction() * 1000) / 1000,
  };
}
