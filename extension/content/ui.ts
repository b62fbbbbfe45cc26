import { HighlightStyle, highlightColour, TextTooltipStyle } from '../../src/enums.ts';
import { directionOf, type Translate } from '../lib/i18n.ts';
import THEME_CSS from '../lib/theme.css';
import { UI_HOST_TAG } from './roots.ts';
import UI_CSS from './ui.css';

// What the extension draws on a page: the tooltip over a selection or a highlight, the side
// panel, and a short notice. Everything lives in one closed shadow root (the page's styles and
// scripts cannot reach in), created the first time something is shown.

export interface ListedHighlight {
  id: string;
  text: string;
  annotation: string | null;
  slotId: number;
}

export interface TooltipActions {
  colour(slotId: number): void;
  style(style: number): void;
  annotate(markdown: string): void;
  remove?(): void;
}

const STYLE_KEYS: Record<number, string> = {
  [HighlightStyle.background]: 'extension.styleBackground',
  [HighlightStyle.underline]: 'extension.styleUnderline',
  [HighlightStyle.wavyUnderline]: 'extension.styleWavy',
  [HighlightStyle.bold]: 'extension.styleBold',
};
const STYLE_GLYPHS: Record<number, string> = {
  [HighlightStyle.background]: 'A',
  [HighlightStyle.underline]: 'U',
  [HighlightStyle.wavyUnderline]: '~',
  [HighlightStyle.bold]: 'B',
};
const NOTICE_FOR_MS = 3500;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) if (value !== undefined) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function button(label: string, testId: string, onClick: () => void, ...children: (Node | string)[]) {
  const node = element('button', {
    type: 'button',
    'aria-label': label,
    title: label,
    'data-testid': testId,
  });
  node.append(...(children.length ? children : [label]));
  // The page's selection stays while a button is pressed.
  node.addEventListener('mousedown', (event) => event.preventDefault());
  node.addEventListener('click', (event) => {
    event.stopPropagation();
    onClick();
  });
  return node;
}

export class PageUi {
  private host: HTMLElement | null = null;
  private root: ShadowRoot | null = null;
  private tooltip: HTMLElement | null = null;
  private panel: HTMLElement | null = null;
  private noticeTimer = 0;

  private t: Translate;
  private language: string;
  private colours: Record<string, string>;

  constructor(t: Translate, language: string, colours: Record<string, string>) {
    this.t = t;
    this.language = language;
    this.colours = colours;
  }

  configure(t: Translate, language: string, colours: Record<string, string>) {
    this.t = t;
    this.language = language;
    this.colours = colours;
  }

  /** The closed shadow root, made on first use (pages the user leaves alone get nothing). */
  private shadow(): ShadowRoot {
    if (this.root && this.host?.isConnected) return this.root;
    this.host = document.createElement(UI_HOST_TAG);
    this.host.style.cssText = 'all: initial; position: fixed; inset: 0 auto auto 0; z-index: 2147483647;';
    this.root = this.host.attachShadow({ mode: 'closed' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(THEME_CSS + UI_CSS);
    this.root.adoptedStyleSheets = [sheet];
    document.documentElement.append(this.host);
    return this.root;
  }

  /** Whether an event happened inside the extension's own UI. */
  owns(event: Event): boolean {
    return this.host !== null && event.composedPath().includes(this.host);
  }

  private frame(className: string, testId: string, label: string): HTMLElement {
    return element('div', {
      class: className,
      'data-testid': testId,
      role: className === 'panel' ? 'complementary' : 'toolbar',
      'aria-label': label,
      dir: directionOf(this.language),
      lang: this.language,
    });
  }

  private colourDot(slotId: number) {
    const dot = element('span', { class: 'dot', 'aria-hidden': 'true' });
    dot.style.background = highlightColour(this.colours[`c${slotId}`] ?? '', 'strong');
    return dot;
  }

  /**
   * The tooltip over `rect`: colours, styles and annotate by the user's tooltip style (one
   * "Highlight" button for the default-colour style); with `remove` it edits a highlight.
   */
  showTooltip(
    rect: DOMRect,
    tooltipStyle: number,
    actions: TooltipActions,
    current?: { slotId: number; style: number; annotation: string | null },
  ) {
    this.hideTooltip();
    const t = this.t;
    const bar = this.frame(
      'tooltip',
      current ? 'margin-edit-tooltip' : 'margin-tooltip',
      t('extension.tooltip'),
    );
    if (tooltipStyle === TextTooltipStyle.defaultColour && !current) {
      bar.append(
        button(
          t('extension.highlight'),
          'margin-colour-1',
          () => actions.colour(1),
          this.colourDot(1),
          t('extension.highlight'),
        ),
      );
    } else {
      const colours = element('div', { class: 'group' });
      for (let slot = 1; slot <= 6; slot++) {
        const pick = button(
          t('extension.colour', { n: slot }),
          `margin-colour-${slot}`,
          () => actions.colour(slot),
          this.colourDot(slot),
        );
        if (current?.slotId === slot) pick.setAttribute('aria-pressed', 'true');
        colours.append(pick);
      }
      const styles = element('div', { class: 'group' });
      for (const style of Object.values(HighlightStyle)) {
        const pick = button(
          t(STYLE_KEYS[style] as string),
          `margin-style-${style}`,
          () => actions.style(style),
          STYLE_GLYPHS[style] as string,
        );
        pick.classList.add(`look-${style}`);
        if (current?.style === style) pick.setAttribute('aria-pressed', 'true');
        styles.append(pick);
      }
      bar.append(colours, styles);
      bar.append(
        button(t('extension.annotate'), 'margin-annotate', () =>
          this.showEditor(rect, current?.annotation ?? '', actions.annotate),
        ),
      );
      if (actions.remove) bar.append(button(t('extension.delete'), 'margin-delete', actions.remove, '🗑'));
    }
    this.place(bar, rect);
    this.tooltip = bar;
  }

  /** The annotation editor (Markdown) in place of the tooltip. */
  showEditor(rect: DOMRect, initial: string, save: (markdown: string) => void) {
    this.hideTooltip();
    const t = this.t;
    const box = this.frame('tooltip editor', 'margin-editor', t('extension.annotate'));
    const field = element('textarea', {
      'aria-label': t('extension.annotationLabel'),
      placeholder: t('extension.annotationPlaceholder'),
      'data-testid': 'margin-annotation',
      rows: '4',
    });
    field.value = initial;
    const submit = () => {
      save(field.value.trim());
      this.hideTooltip();
    };
    field.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit();
      if (event.key === 'Escape') this.hideTooltip();
    });
    const actions = element('div', { class: 'row' });
    actions.append(
      element('span', { class: 'hint' }, t('extension.markdownHint')),
      button(t('extension.cancel'), 'margin-cancel', () => this.hideTooltip()),
      button(t('extension.save'), 'margin-save-annotation', submit),
    );
    actions.lastElementChild?.classList.add('primary');
    box.append(field, actions);
    this.place(box, rect);
    this.tooltip = box;
    field.focus();
  }

  hideTooltip() {
    this.tooltip?.remove();
    this.tooltip = null;
  }

  get tooltipShown() {
    return this.tooltip !== null;
  }

  /** Under the range when there is room, else above; kept inside the viewport. */
  private place(node: HTMLElement, rect: DOMRect) {
    node.style.visibility = 'hidden';
    this.shadow().append(node);
    const { width, height } = node.getBoundingClientRect();
    const gap = 8;
    const below = rect.bottom + gap + height <= window.innerHeight;
    const top = below ? rect.bottom + gap : Math.max(gap, rect.top - gap - height);
    const left = Math.min(
      Math.max(gap, rect.left + rect.width / 2 - width / 2),
      window.innerWidth - width - gap,
    );
    node.style.top = `${top}px`;
    node.style.left = `${Math.max(gap, left)}px`;
    node.style.visibility = '';
  }

  /** The side panel: the page's highlights (a click scrolls to one) and those not found on it. */
  showPanel(
    placed: ListedHighlight[],
    orphans: ListedHighlight[],
    reveal: (id: string) => void,
    readerUrl: string | null,
  ) {
    this.panel?.remove();
    const t = this.t;
    const panel = this.frame('panel', 'margin-panel', t('extension.panelTitle'));
    const header = element('header', {}, element('h2', {}, t('extension.panelTitle')));
    header.append(button(t('extension.close'), 'margin-panel-close', () => this.hidePanel(), '✕'));
    panel.append(header);
    const list = (items: ListedHighlight[], onPick?: (id: string) => void) => {
      const ul = element('ul');
      for (const item of items) {
        const li = element('li', { 'data-testid': 'margin-panel-item', 'data-id': item.id });
        li.append(this.colourDot(item.slotId));
        const body = element('div', {}, element('blockquote', {}, item.text));
        if (item.annotation) body.append(element('p', { class: 'annotation' }, item.annotation));
        li.append(body);
        if (onPick) {
          li.tabIndex = 0;
          li.addEventListener('click', () => onPick(item.id));
          li.addEventListener('keydown', (event) => event.key === 'Enter' && onPick(item.id));
        }
        ul.append(li);
      }
      return ul;
    };
    if (placed.length === 0 && orphans.length === 0)
      panel.append(element('p', { class: 'muted' }, t('extension.panelEmpty')));
    if (placed.length) panel.append(list(placed, reveal));
    if (orphans.length) {
      const section = element('section', { 'data-testid': 'margin-orphans' });
      section.append(
        element('h3', {}, t('extension.orphansTitle', { count: orphans.length })),
        element('p', { class: 'muted' }, t('extension.orphansHint')),
        list(orphans),
      );
      panel.append(section);
    }
    if (readerUrl) {
      const open = element('a', { href: readerUrl, target: '_blank', rel: 'noopener', class: 'open' });
      open.textContent = t('extension.openInMargin');
      panel.append(open);
    }
    this.shadow().append(panel);
    this.panel = panel;
  }

  hidePanel() {
    this.panel?.remove();
    this.panel = null;
  }

  notice(text: string, kind: 'info' | 'error' = 'info') {
    const root = this.shadow();
    root.querySelector('.notice')?.remove();
    const note = this.frame('notice', 'margin-notice', text);
    note.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    note.classList.toggle('error', kind === 'error');
    note.textContent = text;
    root.append(note);
    clearTimeout(this.noticeTimer);
    this.noticeTimer = window.setTimeout(() => note.remove(), NOTICE_FOR_MS);
  }
}
