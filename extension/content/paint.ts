import { type ColourSlot, DEFAULT_SLOT_COLOURS, HighlightStyle, highlightColour } from '../../src/enums.ts';
import { UI_HOST_TAG } from './roots.ts';

// Painting highlights on the live page without touching its DOM: the CSS Custom Highlight API
// (a named Highlight per colour and style, styled by `::highlight()` rules in an adopted
// stylesheet). Where the browser lacks it, ranges are wrapped in <mark> elements instead.

export const CUSTOM_HIGHLIGHTS =
  typeof CSS !== 'undefined' && 'highlights' in CSS && typeof globalThis.Highlight === 'function';

export interface Painted {
  range: Range;
  slotId: number;
  style: number;
}

const nameOf = (slotId: number, style: number) => `margin-${slotId}-${style}`;

function rulesFor(colours: Record<string, string>): string {
  const rules: string[] = [];
  for (let slot = 1; slot <= 6; slot++) {
    const hex = colours[`c${slot}`] ?? DEFAULT_SLOT_COLOURS[slot as ColourSlot];
    const light = highlightColour(hex, 'light');
    const strong = highlightColour(hex, 'strong');
    const looks: Record<number, string> = {
      [HighlightStyle.background]: `background-color: ${strong}; color: inherit;`,
      [HighlightStyle.underline]: `text-decoration: underline 2px ${strong}; text-underline-offset: 3px;`,
      [HighlightStyle.wavyUnderline]: `text-decoration: underline wavy 1.5px ${strong}; text-underline-offset: 3px;`,
      [HighlightStyle.bold]: `background-color: ${light}; text-decoration: underline 3px ${strong};`,
    };
    for (const [style, look] of Object.entries(looks)) {
      rules.push(
        CUSTOM_HIGHLIGHTS
          ? `::highlight(${nameOf(slot, Number(style))}) { ${look} }`
          : `mark[data-margin-look="${nameOf(slot, Number(style))}"] { all: unset; ${look} }`,
      );
    }
  }
  return rules.join('\n');
}

export class Painter {
  private readonly painted = new Map<string, Painted>();
  private readonly sheet = new CSSStyleSheet();
  private readonly adopted = new Set<Document | ShadowRoot>();

  constructor(colours: Record<string, string>) {
    this.sheet.replaceSync(rulesFor(colours));
  }

  setColours(colours: Record<string, string>) {
    this.sheet.replaceSync(rulesFor(colours));
  }

  /** The stylesheet in the document or shadow root the range lies in (once). */
  private adopt(range: Range) {
    const root = range.startContainer.getRootNode() as Document | ShadowRoot;
    const target = root instanceof ShadowRoot ? root : document;
    if (this.adopted.has(target)) return;
    this.adopted.add(target);
    target.adoptedStyleSheets = [...target.adoptedStyleSheets, this.sheet];
  }

  has(id: string) {
    return this.painted.has(id);
  }

  ids() {
    return [...this.painted.keys()];
  }

  paint(id: string, painted: Painted) {
    this.remove(id);
    this.adopt(painted.range);
    if (!CUSTOM_HIGHLIGHTS) {
      const marks = wrapInMarks(painted.range, id, nameOf(painted.slotId, painted.style));
      const range = document.createRange();
      if (marks[0] && marks.at(-1)) {
        range.setStartBefore(marks[0]);
        range.setEndAfter(marks.at(-1) as HTMLElement);
      }
      this.painted.set(id, { ...painted, range });
      return;
    }
    this.painted.set(id, painted);
    this.redraw(nameOf(painted.slotId, painted.style));
  }

  remove(id: string) {
    const old = this.painted.get(id);
    if (!old) return;
    this.painted.delete(id);
    if (CUSTOM_HIGHLIGHTS) this.redraw(nameOf(old.slotId, old.style));
    else unwrapMarks(id);
  }

  private redraw(name: string) {
    const ranges = [...this.painted.values()]
      .filter((p) => nameOf(p.slotId, p.style) === name)
      .map((p) => p.range);
    if (ranges.length === 0) CSS.highlights.delete(name);
    else CSS.highlights.set(name, new Highlight(...ranges));
  }

  /** The painted highlight under a point, if any (highlights take no clicks of their own). */
  at(x: number, y: number): string | null {
    const caret = caretAt(x, y);
    if (!caret) return null;
    for (const [id, { range }] of this.painted) {
      try {
        if (range.isPointInRange(caret.node, caret.offset)) return id;
      } catch {
        // A point in another root (a shadow tree) is not in this range.
      }
    }
    return null;
  }

  rangeOf(id: string): Range | null {
    return this.painted.get(id)?.range ?? null;
  }
}

function caretAt(x: number, y: number): { node: Node; offset: number } | null {
  const fromPosition = (
    document as Document & { caretPositionFromPoint?: typeof document.caretPositionFromPoint }
  ).caretPositionFromPoint;
  if (fromPosition) {
    const position = fromPosition.call(document, x, y);
    return position ? { node: position.offsetNode, offset: position.offset } : null;
  }
  const range = document.caretRangeFromPoint?.(x, y);
  return range ? { node: range.startContainer, offset: range.startOffset } : null;
}

/** The fallback: each text node the range covers, split at its ends and wrapped in a <mark>. */
function wrapInMarks(range: Range, id: string, look: string): HTMLElement[] {
  const root = range.commonAncestorContainer;
  const walker = document.createTreeWalker(
    root.nodeType === Node.TEXT_NODE ? (root.parentNode as Node) : root,
    NodeFilter.SHOW_TEXT,
  );
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (range.intersectsNode(node) && (node as Text).data.length && !node.parentElement?.closest(UI_HOST_TAG))
      texts.push(node as Text);
  }
  const marks: HTMLElement[] = [];
  for (let text of texts) {
    if (text === range.endContainer) text.splitText(range.endOffset);
    if (text === range.startContainer && range.startOffset > 0) text = text.splitText(range.startOffset);
    const mark = document.createElement('mark');
    mark.dataset.marginId = id;
    mark.dataset.marginLook = look;
    text.replaceWith(mark);
    mark.append(text);
    marks.push(mark);
  }
  return marks;
}

function unwrapMarks(id: string) {
  for (const mark of document.querySelectorAll(`mark[data-margin-id="${CSS.escape(id)}"]`)) {
    mark.replaceWith(...mark.childNodes);
  }
}
