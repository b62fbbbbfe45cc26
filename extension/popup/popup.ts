import { translator } from '../lib/bundled-messages.ts';
import { directionOf } from '../lib/i18n.ts';
import type { PopupRequest, Status } from '../lib/messages.ts';

// The toolbar popup: which Margin server, connecting to it, and saving the current tab.

const main = document.getElementById('app') as HTMLElement;
let tabId: number | undefined;
let busy = false;

async function ask(message: PopupRequest): Promise<Status> {
  const answer = (await chrome.runtime.sendMessage({ ...message, tabId })) as {
    ok: boolean;
    value?: Status;
    error?: string;
  };
  if (!answer?.ok) throw new Error(answer?.error ?? 'no answer');
  return answer.value as Status;
}

function node<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

function render(status: Status) {
  const t = translator(status.language);
  document.documentElement.lang = status.language;
  document.documentElement.dir = directionOf(status.language);
  const action = (label: string, testId: string, run: () => Promise<unknown>, primary = false) => {
    const button = node('button', { type: 'button', 'data-testid': testId }, label);
    if (primary) button.className = 'primary';
    button.disabled = busy;
    button.addEventListener('click', () => void perform(run));
    return button;
  };
  const parts: Node[] = [node('h1', {}, t('extension.name'))];
  if (!status.connected) {
    const field = node('input', {
      type: 'url',
      value: status.server,
      'data-testid': 'server',
      autocomplete: 'url',
      spellcheck: 'false',
    });
    parts.push(node('label', {}, t('extension.serverLabel'), field));
    parts.push(
      status.connecting
        ? node(
            'p',
            { class: 'muted', 'data-testid': 'connecting' },
            t('extension.connecting', { code: status.connecting }),
          )
        : node('p', { class: 'muted' }, t('extension.connectHint')),
    );
    parts.push(
      node(
        'div',
        { class: 'row' },
        action(t('extension.connect'), 'connect', () => ask({ type: 'connect', server: field.value }), true),
      ),
    );
  } else {
    parts.push(
      node(
        'p',
        { class: 'muted', 'data-testid': 'connected' },
        t('extension.connectedTo', { server: status.server }),
      ),
    );
    if (status.page) {
      parts.push(
        node(
          'p',
          { 'data-testid': 'page-state' },
          status.page.saved
            ? t('extension.pageSaved', { count: status.page.highlightCount })
            : t('extension.pageNotSaved'),
        ),
      );
      const row = node('div', { class: 'row' });
      if (tabId !== undefined) {
        const id = tabId;
        row.append(
          action(t('extension.savePage'), 'save-page', () => ask({ type: 'saveTab', tabId: id }), true),
          action(t('extension.showPanel'), 'show-panel', async () => {
            await ask({ type: 'showPanel', tabId: id });
            window.close();
          }),
        );
      }
      if (status.page.readerUrl) {
        row.append(
          node(
            'a',
            { href: status.page.readerUrl, target: '_blank', 'data-testid': 'open-reader' },
            t('extension.openInMargin'),
          ),
        );
      }
      parts.push(row);
    } else {
      parts.push(node('p', { class: 'muted' }, t('extension.cannotSaveHere')));
    }
    if (status.queued > 0) {
      parts.push(
        node(
          'div',
          { class: 'row' },
          node(
            'p',
            { class: 'muted', 'data-testid': 'queued' },
            t('extension.queuedCount', { count: status.queued }),
          ),
          action(t('extension.sendNow'), 'send-now', () => ask({ type: 'flush' })),
        ),
      );
    }
    parts.push(
      node(
        'div',
        { class: 'row' },
        action(t('extension.disconnect'), 'disconnect', () => ask({ type: 'disconnect' })),
      ),
    );
  }
  const shown = actionError ?? status.lastError;
  if (shown) parts.push(node('p', { class: 'error', role: 'alert', 'data-testid': 'error' }, shown));
  main.replaceChildren(...parts);
}

let last: Status | null = null;
/** Why the last button's action failed, shown until the next one. */
let actionError: string | null = null;

async function perform(run: () => Promise<unknown>) {
  busy = true;
  if (last) render(last);
  actionError = null;
  try {
    await run();
  } catch (failure) {
    actionError = (failure as Error).message;
  }
  busy = false;
  await refresh();
}

/** While the user confirms in Margin, the popup asks again (which also keeps the background waiting). */
const ASK_WHILE_CONNECTING_MS = 2000;
let asking = 0;

/** Numbers each ask: an answer overtaken by a later ask is not shown. */
let asked = 0;

async function refresh() {
  const thisAsk = ++asked;
  const status = await ask({ type: 'status' });
  if (thisAsk !== asked) return;
  last = status;
  render(status);
  clearTimeout(asking);
  if (status.connecting) asking = window.setTimeout(() => void refresh(), ASK_WHILE_CONNECTING_MS);
}

async function start() {
  // A test opens the popup as a page and names the tab it acts on.
  const named = Number(new URLSearchParams(location.search).get('tab'));
  if (named) tabId = named;
  else tabId = (await chrome.tabs.query({ active: true, currentWindow: true }))[0]?.id;
  // Listening before the first ask: what that ask itself changes (a revoked token found) is shown.
  chrome.storage.onChanged.addListener(() => void refresh());
  await refresh();
}

void start();
