// Browser side of anchoring: the page text of the reader's content root (src/text/dom-text.ts,
// the same walk that builds the text the server stores and re-anchors against), with maps between
// text offsets and DOM positions. No framework dependency; works in any DOM (or jsdom).
import { lowerBound } from '../sorted-search.ts';
import { type DomText, domText, NO_NODE } from '../text/dom-text.ts';

const TEXT_NODE = 3;

export interface TextIndex extends DomText {
  nodeIndexes: Map<Text, number>;
  /** Offset of each node in the concatenation of all Text nodes (the "raw" text). */
  nodeStarts: number[];
  /** Text offsets of the node-backed code units, ascending, and their raw offsets. */
  backedOffsets: Int32Array;
  backedRawOffsets: Int32Array;
}

/** Builds the page text of `root` and the offset maps. Build once per render and reuse. */
export function textIndex(root: Node): TextIndex {
  const page = domText(root);
  const { nodes, unitNodes, unitOffsets } = page;
  const nodeStarts: number[] = new Array(nodes.length);
  const nodeIndexes = new Map<Text, number>();
  let rawLength = 0;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    nodeStarts[i] = rawLength;
    nodeIndexes.set(node, i);
    rawLength += node.length;
  }
  let backedCount = 0;
  for (let offset = 0; offset < unitNodes.length; offset++) if (unitNodes[offset] !== NO_NODE) backedCount++;
  const backedOffsets = new Int32Array(backedCount);
  const backedRawOffsets = new Int32Array(backedCount);
  let backed = 0;
  for (let offset = 0; offset < unitNodes.length; offset++) {
    const node = unitNodes[offset]!;
    if (node === NO_NODE) continue;
    backedOffsets[backed] = offset;
    backedRawOffsets[backed] = nodeStarts[node]! + unitOffsets[offset]!;
    backed++;
  }
  return { ...page, nodeIndexes, nodeStarts, backedOffsets, backedRawOffsets };
}

export interface DomPosition {
  node: Text;
  offset: number;
}

/**
 * The DOM boundary points of text[start, end). Ends on separators the DOM has no character for
 * are moved inward to the nearest node-backed character. Null for an empty or out-of-range span.
 */
export function boundsFromOffsets(index: TextIndex, start: number, end: number): StaticRangeInit | null {
  const low = Math.max(0, Math.min(start, end));
  const high = Math.min(index.text.length, Math.max(start, end));
  let first = low;
  while (first < high && index.unitNodes[first] === NO_NODE) first++;
  let last = high - 1;
  while (last >= first && index.unitNodes[last] === NO_NODE) last--;
  if (first >= high || last < first) return null;
  return {
    startContainer: index.nodes[index.unitNodes[first]!]!,
    startOffset: index.unitOffsets[first]!,
    endContainer: index.nodes[index.unitNodes[last]!]!,
    endOffset: index.unitOffsets[last]! + 1,
  };
}

/** A DOM Range over text[start, end) (see boundsFromOffsets), or null. */
export function rangeFromOffsets(
  root: Node,
  start: number,
  end: number,
  index: TextIndex = textIndex(root),
): Range | null {
  const bounds = boundsFromOffsets(index, start, end);
  if (!bounds) return null;
  const document = root.ownerDocument ?? (root as Document);
  const range = document.createRange();
  range.setStart(bounds.startContainer, bounds.startOffset);
  range.setEnd(bounds.endContainer, bounds.endOffset);
  return range;
}

/**
 * The text offset of the character at `offset` in a Text node under the index's root, or the
 * next character the text keeps when that one was collapsed away; null past the text's end or
 * for a node outside the root.
 */
export function textOffsetAt(index: TextIndex, node: Text, offset: number): number | null {
  const nodeIndex = index.nodeIndexes.get(node);
  if (nodeIndex === undefined) return null;
  const backed = lowerBound(index.backedRawOffsets, index.nodeStarts[nodeIndex]! + offset);
  return backed < index.backedOffsets.length ? index.backedOffsets[backed]! : null;
}

/** Offset of a DOM boundary point in the concatenation of all Text nodes under root. */
function rawOffsetOf(root: Node, index: TextIndex, container: Node, offset: number): number {
  if (container.nodeType === TEXT_NODE) {
    const node = index.nodeIndexes.get(container as Text);
    if (node !== undefined) return index.nodeStarts[node]! + offset;
  }
  const document = root.ownerDocument ?? (root as Document);
  const before = document.createRange();
  before.setStart(root, 0);
  before.setEnd(container, offset);
  return before.toString().length;
}

/**
 * The text offsets covered by a DOM Range, or null if it is not inside root. Boundaries in
 * collapsed whitespace or skipped content move to the nearest character of the page text.
 */
export function offsetsFromRange(
  root: Node,
  range: Range,
  index: TextIndex = textIndex(root),
): { start: number; end: number } | null {
  if (!root.contains(range.startContainer) || !root.contains(range.endContainer)) return null;
  const rawStart = rawOffsetOf(root, index, range.startContainer, range.startOffset);
  const rawEnd = rawOffsetOf(root, index, range.endContainer, range.endOffset);
  const backedStart = lowerBound(index.backedRawOffsets, rawStart);
  const start =
    backedStart < index.backedOffsets.length ? index.backedOffsets[backedStart]! : index.text.length;
  const backedEnd = lowerBound(index.backedRawOffsets, rawEnd) - 1;
  const end = backedEnd >= 0 ? index.backedOffsets[backedEnd]! + 1 : 0;
  return { start, end: Math.max(start, end) };
}

/** Where a text offset lies in the DOM (the node-backed character at or after it). */
export function positionAt(index: TextIndex, offset: number): DomPosition | null {
  let unit = Math.max(0, offset);
  while (unit < index.text.length && index.unitNodes[unit] === NO_NODE) unit++;
  if (unit >= index.text.length) return null;
  return { node: index.nodes[index.unitNodes[unit]!]!, offset: index.unitOffsets[unit]! };
}
