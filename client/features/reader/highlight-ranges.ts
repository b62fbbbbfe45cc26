// The painter for browsers with the CSS Custom Highlight API: each placed highlight becomes a
// StaticRange in a registered Highlight named after its colour and style, styled with
// ::highlight(). The article's DOM is never touched, so the text index is built once per article
// and a repaint costs no layout. With no elements to target, hover and click find the highlight
// under the pointer from the caret position there and a binary search of the sorted spans.
import {
  boundsFromOffsets,
  rangeFromOffsets,
  type TextIndex,
  textIndex,
  textOffsetAt,
} from '../../../src/anchoring/dom.ts';
import { HighlightStyle } from '../../../src/enums.ts';
import {
  COLOUR_SLOTS,
  HIGHLIGHT_STYLES,
  highlightColours,
  knownSlot,
  knownStyle,
} from '../highlights/highlight-look.ts';
import {
  clearImages,
  markImages,
  paintedElementId,
  paintedElementsRange,
  placeHighlights,
} from './highlight-placement.ts';
import { innermostAt, type SortedSpans, type Span } from './highlight-spans.ts';
import { measured } from './paint-timing.ts';
import type { HighlightPainter, PaintedHighlights } from './painted-highlights.ts';

const PREFIX = 'margin-hl';
const HOVER = `${PREFIX}-hover`;
/** Set on the article while the pointer is over a highlight (the cursor shows it can be clicked). */
const HOVER_ATTRIBUTE = 'data-highlight-hover';

export function supportsHighlightApi(): boolean {
  return typeof CSS !== 'undefined' && 'highlights' in CSS && typeof Highlight === 'function';
}

const highlightName = (slotId: number, style: number) =>
  `${PREFIX}-${knownSlot(slotId)}-${knownStyle(style)}`;

/**
 * ::highlight() takes only colours, text decorations and shadows (no font-weight, no background
 * image), so the bold style is drawn with a shadow either side of each glyph and a thick underline.
 */
const STYLE_DECLARATIONS: Record<HighlightStyle, (colours: ReturnType<typeof highlightColours>) => string> = {
  [HighlightStyle.background]: (c) => `background-color: ${c['--hl-light']};`,
  [HighlightStyle.underline]: (c) =>
    `text-decoration: underline 2px ${c['--hl-strong']}; text-underline-offset: 0.22em;`,
  [HighlightStyle.wavyUnderline]: (c) =>
    `text-decoration: underline wavy 1.5px ${c['--hl-strong']}; text-underline-offset: 0.22em;`,
  [HighlightStyle.bold]: (c) =>
    `text-shadow: 0.03em 0 0 currentColor, -0.03em 0 0 currentColor; text-decoration: underline 0.12em ${c['--hl-strong']};`,
};

let rulesInstalled = false;

/** The ::highlight() rules for every colour × style and the hover state, installed once. */
function installRules(): void {
  if (rulesInstalled) return;
  rulesInstalled = true;
  const rules = [
    `::highlight(${HOVER}) { background-color: rgb(0 0 0 / 5%); }`,
    `[data-theme="dark"] ::highlight(${HOVER}) { background-color: rgb(255 255 255 / 9%); }`,
    `[${HOVER_ATTRIBUTE}] { cursor: pointer; }`,
  ];
  for (const slot of COLOUR_SLOTS) {
    const colours = highlightColours(slot);
    for (const style of HIGHLIGHT_STYLES)
      rules.push(`::highlight(${highlightName(slot, style)}) { ${STYLE_DECLARATIONS[style](colours)} }`);
  }
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(rules.join('\n'));
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

function caretAt(x: number, y: number): { node: Node; offset: number } | null {
  if (document.caretPositionFromPoint) {
    const position = document.caretPositionFromPoint(x, y);
    return position && { node: position.offsetNode, offset: position.offset };
  }
  const range = document.caretRangeFromPoint?.(x, y);
  return range ? { node: range.startContainer, offset: range.startOffset } : null;
}

/** The character drawn under a viewport point: the one after the caret there, or the one before. */
function characterAt(x: number, y: number): { node: Text; offset: number } | null {
  const caret = caretAt(x, y);
  if (!caret || caret.node.nodeType !== Node.TEXT_NODE) return null;
  const node = caret.node as Text;
  const probe = document.createRange();
  for (const offset of [caret.offset, caret.offset - 1]) {
    if (offset < 0 || offset >= node.length) continue;
    probe.setStart(node, offset);
    probe.setEnd(node, offset + 1);
    for (const rect of probe.getClientRects()) {
      if (x >= rect.left && x < rect.right && y >= rect.top && y < rect.bottom) return { node, offset };
    }
  }
  return null;
}

function spanAt(index: TextIndex, sorted: SortedSpans, x: number, y: number): Span | undefined {
  const character = characterAt(x, y);
  const offset = character && textOffsetAt(index, character.node, character.offset);
  return offset == null ? undefined : innermostAt(sorted, offset);
}

function staticRange(index: TextIndex, span: Span): StaticRange | null {
  const bounds = boundsFromOffsets(index, span.start, span.end);
  return bounds && new StaticRange(bounds);
}

export function createRangePainter(): HighlightPainter {
  installRules();
  let names = new Set<string>();
  let article: { root: HTMLElement; content: string; index: TextIndex } | undefined;
  let hovered: string | undefined;

  const clearHover = (root: HTMLElement | undefined) => {
    hovered = undefined;
    root?.removeAttribute(HOVER_ATTRIBUTE);
    CSS.highlights.delete(HOVER);
  };
  const setHover = (root: HTMLElement, index: TextIndex, span: Span | undefined) => {
    if (span?.highlight.id === hovered) return;
    const range = span && staticRange(index, span);
    if (!span || !range) {
      clearHover(root);
      return;
    }
    hovered = span.highlight.id;
    root.setAttribute(HOVER_ATTRIBUTE, '');
    const highlight = new Highlight(range);
    // Drawn over the highlight's own colour.
    highlight.priority = 1;
    CSS.highlights.set(HOVER, highlight);
  };

  return {
    paint(root, content, highlights): PaintedHighlights {
      const { index, placed } = measured('highlights:anchor', () => {
        if (article?.root !== root || article.content !== content)
          article = { root, content, index: textIndex(root) };
        clearImages(root);
        return { index: article.index, placed: placeHighlights(root, article.index, highlights) };
      });
      const byId = new Map<string, Span>();
      measured('highlights:paint', () => {
        const groups = new Map<string, StaticRange[]>();
        for (const span of placed.text.spans) {
          const range = staticRange(index, span);
          if (!range) continue;
          byId.set(span.highlight.id, span);
          const name = highlightName(span.highlight.slotId, span.highlight.style);
          const group = groups.get(name);
          if (group) group.push(range);
          else groups.set(name, [range]);
        }
        for (const name of names) if (!groups.has(name)) CSS.highlights.delete(name);
        for (const [name, ranges] of groups) CSS.highlights.set(name, new Highlight(...ranges));
        names = new Set(groups.keys());
        markImages(placed.images);
        clearHover(root);
      });
      return {
        placements: placed.placements,
        idAt: (x, y, target) =>
          paintedElementId(root, target) ?? spanAt(index, placed.text, x, y)?.highlight.id,
        rangeOf(id) {
          const span = byId.get(id);
          if (!span) return paintedElementsRange(root, id);
          return rangeFromOffsets(root, span.start, span.end, index) ?? undefined;
        },
        hover(id) {
          setHover(root, index, id === undefined ? undefined : byId.get(id));
        },
      };
    },
    clear() {
      for (const name of names) CSS.highlights.delete(name);
      names = new Set();
      clearHover(article?.root);
      article = undefined;
    },
  };
}
