// The plain text of article HTML, and where each of its characters came from in the DOM. One walk
// for both sides: the server stores this text (and re-anchors highlights against it), the reader
// maps highlight offsets in it to DOM positions, so the two can never disagree.
//
// Rules: blocks (./blocks.ts) become paragraphs separated by a blank line; <br> is a line break;
// inside a Text node every whitespace run becomes one space; each line then has its runs of
// [ \t\f\r\u00a0] collapsed to one space and is trimmed, and empty lines at a paragraph's edges are
// dropped; <pre> keeps its line breaks; script/style/template/svg and the like are skipped.
// Works on any standard DOM (browser, jsdom, linkedom); no DOM library is imported.
import { BLOCK_TAGS, SKIPPED_TAGS } from './blocks.ts';
import { isJsWhitespace } from './whitespace.ts';

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
/** A shadow root (the browser extension reads each open one as a text of its own). */
const DOCUMENT_FRAGMENT_NODE = 11;
const LINE_FEED = 0x0a;
const SPACE = 0x20;
const LINE_SEPARATOR = 0x2028;
const STRING_CHUNK = 8192;

/** In `unitNodes`, a code unit no Text node produced (paragraph separators, <br> breaks). */
export const NO_NODE = -1;

export interface DomText {
  /** The plain text; offsets everywhere are UTF-16 code units of this string. */
  text: string;
  /** Every Text node under the root in document order, those in skipped elements included. */
  nodes: Text[];
  /** Per code unit of `text`: index into `nodes`, or NO_NODE. */
  unitNodes: Int32Array;
  /** Per code unit of `text`: offset inside its node (0 for NO_NODE units). */
  unitOffsets: Int32Array;
}

/** The whitespace a line collapses across Text nodes: [ \t\f\r\u00a0]. */
function isLineSpace(code: number): boolean {
  return code === SPACE || code === 0x09 || code === 0x0c || code === 0x0d || code === 0xa0;
}

function codesToString(codes: Uint16Array): string {
  let text = '';
  // apply takes the typed array as it is; spreading it would go through its iterator, far slower.
  for (let i = 0; i < codes.length; i += STRING_CHUNK)
    text += String.fromCharCode.apply(null, codes.subarray(i, i + STRING_CHUNK) as unknown as number[]);
  return text;
}

/**
 * Writes the text with the DOM position of each code unit. Whitespace is held back until the next
 * character on the same line shows it is not at the line's end, and <br> breaks until the next
 * character of the same paragraph, so trimming never has to take back what was written.
 */
class TextWriter {
  private length = 0;
  private codes = new Uint16Array(1024);
  private unitNodes = new Int32Array(1024);
  private unitOffsets = new Int32Array(1024);
  private paragraphStarted = false;
  private lineStarted = false;
  private heldBreaks = 0;
  private heldWhitespace = 0;
  private readonly heldWhitespaceCodes: number[] = [];
  private readonly heldWhitespaceNodes: number[] = [];
  private readonly heldWhitespaceOffsets: number[] = [];

  /** Writes data[from, to) of the Text node numbered `node`; none of it may be whitespace. */
  characters(data: string, node: number, from: number, to: number): void {
    this.startCharacters(to - from);
    const { codes, unitNodes, unitOffsets } = this;
    let at = this.length;
    for (let offset = from; offset < to; offset++, at++) {
      codes[at] = data.charCodeAt(offset);
      unitNodes[at] = node;
      unitOffsets[at] = offset;
    }
    this.length = at;
  }

  /** Holds back a whitespace code unit: a space, or inside <pre> any whitespace as it is. */
  whitespace(code: number, node: number, offset: number): void {
    this.heldWhitespaceCodes[this.heldWhitespace] = code;
    this.heldWhitespaceNodes[this.heldWhitespace] = node;
    this.heldWhitespaceOffsets[this.heldWhitespace] = offset;
    this.heldWhitespace++;
  }

  lineBreak(): void {
    this.heldWhitespace = 0;
    this.lineStarted = false;
    if (this.paragraphStarted) this.heldBreaks++;
  }

  endParagraph(): void {
    this.heldWhitespace = 0;
    this.heldBreaks = 0;
    this.lineStarted = false;
    this.paragraphStarted = false;
  }

  finish(): Omit<DomText, 'nodes'> {
    return {
      text: codesToString(this.codes.subarray(0, this.length)),
      unitNodes: this.unitNodes.slice(0, this.length),
      unitOffsets: this.unitOffsets.slice(0, this.length),
    };
  }

  /** Writes what was held back before characters, and makes room for them. */
  private startCharacters(count: number): void {
    this.reserve(count + 2 + this.heldBreaks + this.heldWhitespace);
    if (!this.paragraphStarted) {
      if (this.length > 0) {
        this.write(LINE_FEED, NO_NODE, 0);
        this.write(LINE_FEED, NO_NODE, 0);
      }
      this.paragraphStarted = true;
    }
    for (; this.heldBreaks > 0; this.heldBreaks--) this.write(LINE_FEED, NO_NODE, 0);
    if (this.lineStarted) {
      for (let i = 0; i < this.heldWhitespace; i++) {
        const code = this.heldWhitespaceCodes[i]!;
        // Only <pre> holds other whitespace than spaces; a U+2028 there is written as a line feed.
        if (!isLineSpace(code))
          this.write(
            code === LINE_SEPARATOR ? LINE_FEED : code,
            this.heldWhitespaceNodes[i]!,
            this.heldWhitespaceOffsets[i]!,
          );
        else if (i === 0 || !isLineSpace(this.heldWhitespaceCodes[i - 1]!))
          this.write(SPACE, this.heldWhitespaceNodes[i]!, this.heldWhitespaceOffsets[i]!);
      }
    }
    this.heldWhitespace = 0;
    this.lineStarted = true;
  }

  private write(code: number, node: number, offset: number): void {
    this.codes[this.length] = code;
    this.unitNodes[this.length] = node;
    this.unitOffsets[this.length] = offset;
    this.length++;
  }

  private reserve(count: number): void {
    const needed = this.length + count;
    if (needed <= this.codes.length) return;
    const capacity = Math.max(needed, this.codes.length * 2);
    const codes = new Uint16Array(capacity);
    const unitNodes = new Int32Array(capacity);
    const unitOffsets = new Int32Array(capacity);
    codes.set(this.codes);
    unitNodes.set(this.unitNodes);
    unitOffsets.set(this.unitOffsets);
    this.codes = codes;
    this.unitNodes = unitNodes;
    this.unitOffsets = unitOffsets;
  }
}

/** The plain text of `root` and the DOM position of each of its code units. */
export function domText(root: Node): DomText {
  const nodes: Text[] = [];
  const writer = new TextWriter();

  const registerSkipped = (node: Node): void => {
    if (node.nodeType === TEXT_NODE) nodes.push(node as Text);
    for (let child = node.firstChild; child; child = child.nextSibling) registerSkipped(child);
  };
  const writeText = (node: Text, inPre: boolean): void => {
    const index = nodes.push(node) - 1;
    const data = node.data;
    let offset = 0;
    while (offset < data.length) {
      const code = data.charCodeAt(offset);
      if (!isJsWhitespace(code)) {
        let end = offset + 1;
        while (end < data.length && !isJsWhitespace(data.charCodeAt(end))) end++;
        writer.characters(data, index, offset, end);
        offset = end;
      } else if (inPre) {
        writer.whitespace(code, index, offset);
        offset++;
      } else {
        writer.whitespace(SPACE, index, offset);
        offset++;
        while (offset < data.length && isJsWhitespace(data.charCodeAt(offset))) offset++;
      }
    }
  };
  const walk = (node: Node, inPre: boolean): void => {
    if (node.nodeType === TEXT_NODE) {
      writeText(node as Text, inPre);
      return;
    }
    if (node.nodeType === DOCUMENT_FRAGMENT_NODE) {
      for (let child = node.firstChild; child; child = child.nextSibling) walk(child, inPre);
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const tag = (node as Element).tagName.toUpperCase();
    if (SKIPPED_TAGS.has(tag)) {
      registerSkipped(node);
      return;
    }
    if (tag === 'BR') {
      writer.lineBreak();
      return;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) writer.endParagraph();
    const pre = inPre || tag === 'PRE';
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child, pre);
    if (block) writer.endParagraph();
  };
  walk(root, false);

  return { ...writer.finish(), nodes };
}
