// Browser side of anchoring: the page's plain text built from the reader's content root, with a
// map between text offsets and DOM positions. The text follows the server's article text rules
// (server/domain/clip/extract/html-to-text.ts): blocks become paragraphs separated by a blank
// line, <br> is a line break, whitespace is collapsed and trimmed per line, <pre> keeps its line
// breaks, script/style/template/svg are skipped. So offsets computed here agree with the text the
// server stores and re-anchors against. No framework dependency; works in any DOM (or jsdom).
import { BLOCK_TAGS, SKIPPED_TAGS } from '../text/blocks.ts';

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const LINE_FEED = 0x0a;
const SPACE = 0x20;
const PRE_LINE_BREAK = 0x2028;
/** Marks a code unit that no Text node produced (paragraph separators, <br> breaks). */
const SYNTHETIC = -1;

/** JavaScript's `\s` (also what String.prototype.trim removes). */
function isJsWhitespace(code: number): boolean {
  return (
    code === SPACE ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** What the server collapses inside a line: [ \t\f\r\u00a0]. */
function isLineSpace(code: number): boolean {
  return code === SPACE || code === 0x09 || code === 0x0c || code === 0x0d || code === 0xa0;
}

/** Code units with the Text node (index) and offset each came from. */
interface Units {
  codes: number[];
  nodes: number[];
  offsets: number[];
}

function emptyUnits(): Units {
  return { codes: [], nodes: [], offsets: [] };
}

function pushUnit(units: Units, code: number, node: number, offset: number): void {
  units.codes.push(code);
  units.nodes.push(node);
  units.offsets.push(offset);
}

export interface TextIndex {
  /** The page's plain text; offsets everywhere are UTF-16 code units of this string. */
  text: string;
  /** Every Text node under the root in document order (skipped ones included). */
  nodes: Text[];
  nodeIndexes: Map<Text, number>;
  /** Offset of each node in the concatenation of all Text nodes (the "raw" text). */
  nodeStarts: number[];
  /** Per code unit of `text`: index into `nodes`, or -1 for separators no node produced. */
  unitNodes: Int32Array;
  /** Per code unit of `text`: offset inside its node. */
  unitOffsets: Int32Array;
  /** Text offsets of the node-backed code units, ascending, and their raw offsets. */
  backedOffsets: Int32Array;
  backedRawOffsets: Int32Array;
}

/** Mirrors the per-line collapse and trim of the server's paragraph builder on a unit run. */
function finishLine(line: Units, into: Units): void {
  const collapsed = emptyUnits();
  for (let i = 0; i < line.codes.length; i++) {
    const code = line.codes[i]!;
    if (isLineSpace(code)) {
      if (i > 0 && isLineSpace(line.codes[i - 1]!)) continue;
      pushUnit(collapsed, SPACE, line.nodes[i]!, line.offsets[i]!);
    } else {
      pushUnit(collapsed, code, line.nodes[i]!, line.offsets[i]!);
    }
  }
  let first = 0;
  let last = collapsed.codes.length;
  while (first < last && isJsWhitespace(collapsed.codes[first]!)) first++;
  while (last > first && isJsWhitespace(collapsed.codes[last - 1]!)) last--;
  for (let i = first; i < last; i++)
    pushUnit(into, collapsed.codes[i]!, collapsed.nodes[i]!, collapsed.offsets[i]!);
}

function finishParagraph(current: Units, paragraphs: Units[]): void {
  const joined = emptyUnits();
  let line = emptyUnits();
  for (let i = 0; i < current.codes.length; i++) {
    if (current.codes[i] === LINE_FEED) {
      finishLine(line, joined);
      pushUnit(joined, LINE_FEED, current.nodes[i]!, current.offsets[i]!);
      line = emptyUnits();
    } else {
      pushUnit(line, current.codes[i]!, current.nodes[i]!, current.offsets[i]!);
    }
  }
  finishLine(line, joined);
  let first = 0;
  let last = joined.codes.length;
  while (first < last && joined.codes[first] === LINE_FEED) first++;
  while (last > first && joined.codes[last - 1] === LINE_FEED) last--;
  if (first === last) return;
  paragraphs.push({
    codes: joined.codes.slice(first, last),
    nodes: joined.nodes.slice(first, last),
    offsets: joined.offsets.slice(first, last),
  });
}

function unitsToString(codes: number[]): string {
  let text = '';
  const CHUNK = 8192;
  for (let i = 0; i < codes.length; i += CHUNK) text += String.fromCharCode(...codes.slice(i, i + CHUNK));
  return text;
}

/** Builds the page text of `root` and the offset map. Build once per render and reuse. */
export function textIndex(root: Node): TextIndex {
  const nodes: Text[] = [];
  const nodeStarts: number[] = [];
  let rawLength = 0;
  const paragraphs: Units[] = [];
  let current = emptyUnits();

  const registerText = (node: Text): number => {
    nodes.push(node);
    nodeStarts.push(rawLength);
    rawLength += node.data.length;
    return nodes.length - 1;
  };
  const endParagraph = (): void => {
    finishParagraph(current, paragraphs);
    current = emptyUnits();
  };
  const registerSkipped = (node: Node): void => {
    if (node.nodeType === TEXT_NODE) registerText(node as Text);
    for (let child = node.firstChild; child; child = child.nextSibling) registerSkipped(child);
  };
  const walk = (node: Node, inPre: boolean): void => {
    if (node.nodeType === TEXT_NODE) {
      const index = registerText(node as Text);
      const data = (node as Text).data;
      for (let offset = 0; offset < data.length; offset++) {
        const code = data.charCodeAt(offset);
        if (inPre) {
          pushUnit(current, code === LINE_FEED ? PRE_LINE_BREAK : code, index, offset);
        } else if (!isJsWhitespace(code)) {
          pushUnit(current, code, index, offset);
        } else if (offset === 0 || !isJsWhitespace(data.charCodeAt(offset - 1))) {
          pushUnit(current, SPACE, index, offset);
        }
      }
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const tag = (node as Element).tagName.toUpperCase();
    if (SKIPPED_TAGS.has(tag)) {
      registerSkipped(node);
      return;
    }
    if (tag === 'BR') {
      pushUnit(current, LINE_FEED, SYNTHETIC, 0);
      return;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) endParagraph();
    const pre = inPre || tag === 'PRE';
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child, pre);
    if (block) endParagraph();
  };
  walk(root, false);
  endParagraph();

  const all = emptyUnits();
  paragraphs.forEach((paragraph, i) => {
    if (i > 0) {
      pushUnit(all, LINE_FEED, SYNTHETIC, 0);
      pushUnit(all, LINE_FEED, SYNTHETIC, 0);
    }
    for (let k = 0; k < paragraph.codes.length; k++) {
      const code = paragraph.codes[k]!;
      pushUnit(all, code === PRE_LINE_BREAK ? LINE_FEED : code, paragraph.nodes[k]!, paragraph.offsets[k]!);
    }
  });

  const backed: number[] = [];
  const backedRaw: number[] = [];
  all.nodes.forEach((node, offset) => {
    if (node === SYNTHETIC) return;
    backed.push(offset);
    backedRaw.push(nodeStarts[node]! + all.offsets[offset]!);
  });
  return {
    text: unitsToString(all.codes),
    nodes,
    nodeIndexes: new Map(nodes.map((node, i) => [node, i])),
    nodeStarts,
    unitNodes: Int32Array.from(all.nodes),
    unitOffsets: Int32Array.from(all.offsets),
    backedOffsets: Int32Array.from(backed),
    backedRawOffsets: Int32Array.from(backedRaw),
  };
}

/** First index in an ascending array whose value is >= `value`. */
function lowerBound(values: Int32Array, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

export interface DomPosition {
  node: Text;
  offset: number;
}

/**
 * A DOM Range over text[start, end). Ends on separators the DOM has no character for are moved
 * inward to the nearest node-backed character. Returns null for an empty or out-of-range span.
 */
export function rangeFromOffsets(
  root: Node,
  start: number,
  end: number,
  index: TextIndex = textIndex(root),
): Range | null {
  const low = Math.max(0, Math.min(start, end));
  const high = Math.min(index.text.length, Math.max(start, end));
  let first = low;
  while (first < high && index.unitNodes[first] === SYNTHETIC) first++;
  let last = high - 1;
  while (last >= first && index.unitNodes[last] === SYNTHETIC) last--;
  if (first >= high || last < first) return null;
  const document = root.ownerDocument ?? (root as Document);
  const range = document.createRange();
  range.setStart(index.nodes[index.unitNodes[first]!]!, index.unitOffsets[first]!);
  range.setEnd(index.nodes[index.unitNodes[last]!]!, index.unitOffsets[last]! + 1);
  return range;
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
  while (unit < index.text.length && index.unitNodes[unit] === SYNTHETIC) unit++;
  if (unit >= index.text.length) return null;
  return { node: index.nodes[index.unitNodes[unit]!]!, offset: index.unitOffsets[unit]! };
}
