import { HighlightStyle, TextTooltipStyle } from '../../src/enums.ts';
import { DEVICE_CODE_MARK } from '../../src/rules/device-flow.ts';
import { shortcutOf } from '../../src/rules/extension.ts';
import type { ExtensionSettings } from '../../src/schemas/extension.ts';
import type { Selectors } from '../../src/schemas/highlights.ts';
import type { ApiHighlight } from '../../src/schemas/openapi.ts';
import { makeTranslator } from '../lib/i18n.ts';
import type {
  BackgroundToContent,
  CollectedPage,
  ContentRequest,
  HighlightPatch,
  PageAnswer,
} from '../lib/messages.ts';
import { Painter } from './paint.ts';
import { describeOnPage, pageChanged, placeOnPage, selectedRange } from './roots.ts';
import { type ListedHighlight, PageUi } from './ui.ts';

// The content script, in every frame of every http(s) page. At load it only asks the background
// about the page; it paints, listens and draws only for a connected user, and its UI only once
// the user selects, clicks a highlight or asks for the panel.

/** Late content (a single-page app) is watched this long for highlights not yet found. */
const WATCH_FOR_MS = 10_000;
const SETTLE_MS = 250;

interface PageHighlight {
  id: string;
  selectors: Selectors;
  text: string;
  slotId: number;
  style: number;
  annotation: string | null;
}

const isTop = window === window.top;
let settings: ExtensionSettings | null = null;
let t = makeTranslator('en', {});
let language = 'en';
let painter: Painter | null = null;
let ui: PageUi | null = null;
const highlights = new Map<string, PageHighlight>();
let readerUrl: string | null = null;

async function ask<T>(message: ContentRequest): Promise<T> {
  const answer = (await chrome.runtime.sendMessage(message)) as { ok: boolean; value?: T; error?: string };
  if (!answer?.ok) throw new Error(answer?.error ?? 'no answer');
  return answer.value as T;
}

const pageUrl = () => location.href.split('#')[0] as string;

function pageHighlightOf(h: ApiHighlight): PageHighlight | null {
  if (!h.selectors) return null;
  return {
    id: h.id,
    selectors: h.selectors,
    text: h.text,
    slotId: h.slotId,
    style: h.style,
    annotation: h.annotation,
  };
}

function uiOf(): PageUi {
  ui ??= new PageUi(t, language, settings?.colours ?? {});
  return ui;
}

// ── Painting ───────────────────────────────────────────────────────────────────────────────

/** Paints what can be found now; answers whether some are still missing. */
function paintMissing(): boolean {
  if (!painter) return false;
  const found: string[] = [];
  let missing = false;
  for (const highlight of highlights.values()) {
    if (painter.has(highlight.id)) continue;
    const range = placeOnPage(highlight.selectors);
    if (!range) {
      missing = true;
      continue;
    }
    painter.paint(highlight.id, { range, slotId: highlight.slotId, style: highlight.style });
    found.push(highlight.id);
  }
  reportAnchored(found);
  return missing;
}

/** Tells the background which highlights are on the page (the side panel lists the others). */
function reportAnchored(ids: string[]) {
  if (ids.length) void ask({ type: 'anchored', url: pageUrl(), ids }).catch(() => undefined);
}

let watcher: MutationObserver | null = null;
/** Re-anchors as late content arrives, until everything is placed or the page has had its time. */
function watchLateContent() {
  if (watcher || !document.body) return;
  const until = Date.now() + WATCH_FOR_MS;
  let timer = 0;
  // The extension's own UI hangs off <html>, outside what is observed.
  watcher = new MutationObserver(() => {
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      pageChanged();
      if (!measured('paint-late', paintMissing) || Date.now() > until) stopWatching();
    }, SETTLE_MS);
  });
  watcher.observe(document.body, { childList: true, subtree: true, characterData: true });
  window.setTimeout(stopWatching, WATCH_FOR_MS + SETTLE_MS);
}
function stopWatching() {
  watcher?.disconnect();
  watcher = null;
}

/** The content script's own time on the page, in the browser's performance timeline (DevTools shows it). */
function measured<T>(name: string, work: () => T): T {
  const start = performance.now();
  try {
    return work();
  } finally {
    performance.measure(`margin:${name}`, { start, end: performance.now() });
  }
}

function showAll(list: ApiHighlight[]) {
  measured('paint', () => paintAll(list));
}

function paintAll(list: ApiHighlight[]) {
  if (!painter) return;
  const next = new Map(
    list.flatMap((h) => (pageHighlightOf(h) ? [[h.id, pageHighlightOf(h) as PageHighlight]] : [])),
  );
  for (const id of painter.ids()) {
    const now = next.get(id);
    const before = highlights.get(id);
    if (!now || now.slotId !== before?.slotId || now.style !== before.style) painter.remove(id);
  }
  highlights.clear();
  for (const [id, h] of next) highlights.set(id, h);
  pageChanged();
  if (paintMissing()) watchLateContent();
}

// ── Making and changing highlights ──────────────────────────────────────────────────────────

function newId(): string {
  return crypto.randomUUID();
}

function report(outcome: 'done' | 'queued') {
  if (outcome === 'queued') uiOf().notice(t('extension.queued'));
}

async function send(request: ContentRequest, undo: () => void) {
  try {
    report(await ask<'done' | 'queued'>(request));
  } catch (error) {
    undo();
    uiOf().notice(t('extension.failed', { message: (error as Error).message }), 'error');
  }
}

/** Highlights a range of the page (the selection when it was made); answers the new highlight's id. */
function highlightRange(
  range: Range | null,
  slotId: number,
  style: number,
  annotation?: string,
): string | null {
  if (!range || !painter) return null;
  const described = describeOnPage(range);
  if (!described) return null;
  const highlight: PageHighlight = {
    id: newId(),
    selectors: described.selectors,
    text: described.text,
    slotId,
    style,
    annotation: annotation ?? null,
  };
  highlights.set(highlight.id, highlight);
  painter.paint(highlight.id, { range: described.range, slotId, style });
  reportAnchored([highlight.id]);
  document.getSelection()?.removeAllRanges();
  ui?.hideTooltip();
  void send(
    {
      type: 'create',
      url: pageUrl(),
      title: document.title,
      highlight: {
        id: highlight.id,
        selectors: highlight.selectors,
        slotId,
        style,
        ...(annotation ? { annotation } : {}),
      },
    },
    () => {
      painter?.remove(highlight.id);
      highlights.delete(highlight.id);
    },
  );
  return highlight.id;
}

function change(id: string, patch: HighlightPatch) {
  const highlight = highlights.get(id);
  if (!highlight || !painter) return;
  const before = { ...highlight };
  Object.assign(highlight, patch);
  const range = painter.rangeOf(id);
  if (range) painter.paint(id, { range, slotId: highlight.slotId, style: highlight.style });
  void send({ type: 'update', id, patch }, () => {
    Object.assign(highlight, before);
    if (range) painter?.paint(id, { range, slotId: before.slotId, style: before.style });
  });
}

function remove(id: string) {
  const highlight = highlights.get(id);
  const range = painter?.rangeOf(id);
  painter?.remove(id);
  highlights.delete(id);
  ui?.hideTooltip();
  void send({ type: 'delete', id }, () => {
    if (!highlight || !range) return;
    highlights.set(id, highlight);
    painter?.paint(id, { range, slotId: highlight.slotId, style: highlight.style });
  });
}

// ── What the user does ─────────────────────────────────────────────────────────────────────

let lastStyle: number = HighlightStyle.background;

function onSelectionEnd(event: Event) {
  if (!settings || ui?.owns(event)) return;
  const range = selectedRange();
  if (!range || !describeOnPage(range)) {
    ui?.hideTooltip();
    return;
  }
  const style = settings.textTooltipStyle;
  if (style === TextTooltipStyle.hide) return;
  if (style === TextTooltipStyle.autoHighlight) {
    highlightRange(range, 1, lastStyle);
    return;
  }
  // Typing an annotation moves the selection into the editor: the range is kept from here.
  uiOf().showTooltip(range.getBoundingClientRect(), style, {
    colour: (slotId) => highlightRange(range, slotId, lastStyle),
    style: (chosen) => {
      lastStyle = chosen;
      highlightRange(range, 1, chosen);
    },
    annotate: (markdown) => highlightRange(range, 1, lastStyle, markdown || undefined),
  });
}

function onClick(event: MouseEvent) {
  if (!settings || !painter || ui?.owns(event)) return;
  // The click that ends a selection belongs to the selection's tooltip.
  if (selectedRange()) return;
  const id = painter.at(event.clientX, event.clientY);
  const highlight = id ? highlights.get(id) : undefined;
  const range = id ? painter.rangeOf(id) : null;
  if (!highlight || !range) {
    ui?.hideTooltip();
    return;
  }
  uiOf().showTooltip(
    range.getBoundingClientRect(),
    TextTooltipStyle.moreTools,
    {
      colour: (slotId) => change(highlight.id, { slotId }),
      style: (style) => change(highlight.id, { style }),
      annotate: (markdown) => change(highlight.id, { annotation: markdown || null }),
      remove: () => remove(highlight.id),
    },
    highlight,
  );
}

function collect(): CollectedPage {
  return { url: pageUrl(), title: document.title, html: document.documentElement.outerHTML };
}

async function savePage() {
  try {
    report(await ask<'done' | 'queued'>({ type: 'save', ...collect() }));
    uiOf().notice(t('extension.savedPage'));
  } catch (error) {
    uiOf().notice(t('extension.failed', { message: (error as Error).message }), 'error');
  }
}

function onKeyDown(event: KeyboardEvent) {
  if (!settings) return;
  const pressed = shortcutOf(event);
  if (!pressed) return;
  const { highlight, annotate, save } = settings.shortcuts;
  if (pressed === highlight && highlightRange(selectedRange(), 1, lastStyle)) event.preventDefault();
  else if (pressed === save && isTop) {
    event.preventDefault();
    void savePage();
  } else if (pressed === annotate) {
    const range = selectedRange();
    if (!range || !describeOnPage(range)) return;
    event.preventDefault();
    uiOf().showEditor(range.getBoundingClientRect(), '', (markdown) =>
      highlightRange(range, 1, lastStyle, markdown || undefined),
    );
  } else if (event.key === 'Escape') ui?.hideTooltip();
}

async function showPanel() {
  const listed = (h: PageHighlight): ListedHighlight => ({
    id: h.id,
    text: h.text,
    annotation: h.annotation,
    slotId: h.slotId,
  });
  const placed = [...highlights.values()]
    .filter((h) => painter?.has(h.id))
    .sort((a, b) => (a.selectors.position?.start ?? 0) - (b.selectors.position?.start ?? 0))
    .map(listed);
  const orphans = await ask<ApiHighlight[]>({ type: 'orphans', url: pageUrl() }).catch(() => []);
  uiOf().showPanel(
    placed,
    orphans.map((h) => ({ id: h.id, text: h.text, annotation: h.annotation, slotId: h.slotId })),
    (id) => {
      const range = painter?.rangeOf(id);
      const target = range?.startContainer.parentElement;
      target?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    },
    readerUrl,
  );
}

// ── Start ──────────────────────────────────────────────────────────────────────────────────

function apply(answer: PageAnswer) {
  settings = answer.settings;
  if (!settings) return;
  language = answer.language;
  t = makeTranslator(language, answer.messages);
  if (painter) painter.setColours(settings.colours);
  else painter = new Painter(settings.colours);
  ui?.configure(t, language, settings.colours);
  showAll(answer.highlights);
}

let listening = false;
function listen() {
  if (listening) return;
  listening = true;
  document.addEventListener('mouseup', onSelectionEnd);
  document.addEventListener('keyup', (event) => event.shiftKey && onSelectionEnd(event));
  document.addEventListener('click', onClick);
  document.addEventListener('keydown', onKeyDown, true);
}

chrome.runtime.onMessage.addListener((message: BackgroundToContent, _sender, sendResponse) => {
  switch (message.type) {
    case 'collect':
      if (isTop) sendResponse(collect());
      return;
    case 'repaint':
      readerUrl = message.readerUrl;
      showAll(message.highlights);
      return;
    case 'showPanel':
      if (isTop) void showPanel();
      return;
    case 'highlightSelection':
      highlightRange(selectedRange(), 1, lastStyle);
      return;
  }
});

async function start() {
  const answer = await ask<PageAnswer>({ type: 'hello', url: pageUrl() }).catch(() => null);
  if (!answer) return;
  if (answer.app) {
    // The app's own pages learn which extension is installed.
    const html = document.documentElement;
    html.setAttribute('mkt', answer.app.mkt);
    html.setAttribute('v', answer.app.v);
    html.setAttribute('mktv', answer.app.mktv);
    if (answer.deviceCode) html.setAttribute(DEVICE_CODE_MARK, answer.deviceCode);
    return;
  }
  if (
    !answer.settings &&
    isTop &&
    document.querySelector('meta[name="application-name"][content="Margin"]')
  ) {
    // Not connected yet, on a Margin: the popup offers this server.
    void ask({ type: 'suggestServer', origin: location.origin }).catch(() => undefined);
    return;
  }
  readerUrl = answer.readerUrl;
  apply(answer);
  if (settings) listen();
}

void start();
