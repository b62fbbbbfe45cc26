import { CoreType } from '../src/enums.ts';
import { confirmPagePath, formatDeviceCode, newClientId, newDeviceCode } from '../src/rules/device-flow.ts';
import { EXTENSION_SERVICE_ID, UploadContentType, uploadFile } from '../src/rules/extension.ts';
import type { ExtensionPage, ExtensionSettings, UploadPolicy } from '../src/schemas/extension.ts';
import { ApiError, callApi, market, normalizeServer, pollToken, postUpload } from './lib/api.ts';
import { messagesFor, translator } from './lib/bundled-messages.ts';
import { pickLanguage } from './lib/i18n.ts';
import type {
  BackgroundToContent,
  CollectedPage,
  ContentRequest,
  PageAnswer,
  PopupRequest,
  Status,
} from './lib/messages.ts';
import {
  defaultServer,
  type QueuedChange,
  readStored,
  type Stored,
  updateQueue,
  writeStored,
} from './lib/store.ts';

// The extension's background: the only part that talks to the Margin server. Content scripts
// and the popup ask it by message; what cannot reach the server waits in a queue (storage) and
// is sent, in order and with the highlights' own ids, once it can.

const POLL_EVERY_MS = 1000;
const POLL_FOR_MS = 10 * 60_000;
/** A page's saved state is asked again after this long (another device may have changed it). */
const PAGE_FRESH_MS = 15_000;
const FLUSH_ALARM = 'flush-queue';
const SETTINGS_ALARM = 'refresh-settings';

interface TabPage {
  url: string;
  page: ExtensionPage | null;
  fetchedAt: number;
  /** Highlights some frame of the tab placed on the page. */
  anchored: Set<string>;
}
const tabs = new Map<number, TabPage>();

const withoutHash = (url: string) => url.split('#')[0] as string;

async function t(key: string, values?: Record<string, string | number>) {
  const { settings } = await readStored();
  return translator(pickLanguage(settings?.language))(key, values);
}

// ── Calls ──────────────────────────────────────────────────────────────────────────────────

/** Calls the server as the connected user; a revoked token disconnects the extension. */
async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const { server, token } = await readStored();
  if (!token) throw new ApiError('unauthorized', 401, await t('extension.notConnected'));
  try {
    const answer = await callApi<T>(server, token, method, path, body);
    return answer;
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'unauthorized') {
      await writeStored({ token: null, settings: null, lastError: await t('extension.disconnected') });
      for (const tabId of tabs.keys()) void chrome.action.setBadgeText({ tabId, text: '' });
      tabs.clear();
    } else if (error instanceof ApiError && error.kind === 'refused') {
      await writeStored({ lastError: error.message });
    }
    throw error;
  }
}

async function refreshSettings(): Promise<ExtensionSettings | null> {
  try {
    const settings = await api<ExtensionSettings>('GET', '/extension/settings');
    await writeStored({ settings });
    return settings;
  } catch {
    return (await readStored()).settings;
  }
}

// ── Pages and the badge ───────────────────────────────────────────────────────────────────

async function showBadge(tabId: number, page: ExtensionPage | null) {
  const count = page?.note?.highlightCount ?? 0;
  const text = !page?.note ? '' : count > 0 ? String(Math.min(count, 999)) : '✓';
  await chrome.action.setBadgeBackgroundColor({ tabId, color: '#1F6F5C' }).catch(() => undefined);
  await chrome.action.setBadgeText({ tabId, text }).catch(() => undefined);
  const title = page?.note ? await t('extension.badgeSaved', { count }) : await t('extension.name');
  await chrome.action.setTitle({ tabId, title }).catch(() => undefined);
}

/** The saved note of the tab's page and its highlights (asked again when stale or `fresh`). */
async function pageOf(
  tabId: number | undefined,
  rawUrl: string,
  fresh = false,
): Promise<ExtensionPage | null> {
  const url = withoutHash(rawUrl);
  const known = tabId === undefined ? undefined : tabs.get(tabId);
  if (known && known.url === url && !fresh && Date.now() - known.fetchedAt < PAGE_FRESH_MS) {
    // The browser clears a tab's badge when it navigates (a reload too).
    if (tabId !== undefined) await showBadge(tabId, known.page);
    return known.page;
  }
  const page = await api<ExtensionPage>('GET', `/extension/page?url=${encodeURIComponent(url)}`).catch(
    () => known?.page ?? null,
  );
  if (tabId !== undefined) {
    const anchored = known && known.url === url ? known.anchored : new Set<string>();
    tabs.set(tabId, { url, page, fetchedAt: Date.now(), anchored });
    await showBadge(tabId, page);
  }
  return page;
}

/** Tells every frame of the tab to paint the page's highlights as they now are. */
async function repaint(tabId: number, url: string) {
  const page = await pageOf(tabId, url, true);
  const message: BackgroundToContent = {
    type: 'repaint',
    highlights: page?.highlights ?? [],
    readerUrl: page?.note?.readerUrl ?? null,
  };
  await chrome.tabs.sendMessage(tabId, message).catch(() => undefined);
}

// ── Saving ─────────────────────────────────────────────────────────────────────────────────

/** Saves the page as the browser rendered it: an upload policy, the form, then its callback. */
async function saveRendered(page: CollectedPage): Promise<string> {
  const policy = await api<UploadPolicy>('POST', '/extension/uploads', { url: page.url });
  const file = uploadFile(
    { contentType: UploadContentType.pageHtml, url: page.url, title: page.title.slice(0, 500) },
    page.html,
  );
  await postUpload(policy, file);
  const done = await api<{ note: { id: string } }>('POST', '/extension/uploads/complete', {
    key: policy.key,
  });
  return done.note.id;
}

async function saveLink(url: string): Promise<string> {
  const done = await api<{ note: { id: string } }>('POST', '/extension/notes', { url });
  return done.note.id;
}

/** Runs a change now, or queues it (with what it needs) when the server cannot be reached. */
async function runOrQueue(change: QueuedChange): Promise<'done' | 'queued'> {
  const { queue } = await readStored();
  // Behind queued changes, a change waits its turn so the order holds.
  if (queue.length === 0) {
    try {
      await apply(change);
      return 'done';
    } catch (error) {
      if (!(error instanceof ApiError && error.kind === 'offline')) throw error;
    }
  }
  await updateQueue((items) => [...items, change]);
  return 'queued';
}

/** The note of a page a queued highlight was made on (its save went first), else saved by URL. */
async function noteIdFor(url: string): Promise<string> {
  const page = await pageOf(undefined, url, true);
  return page?.note?.id ?? saveLink(url);
}

async function apply(change: QueuedChange): Promise<void> {
  switch (change.kind) {
    case 'save':
      await saveRendered(change);
      return;
    case 'create': {
      const noteId = await noteIdFor(change.url);
      await api('POST', '/highlights', { ...change.highlight, noteId, coreType: CoreType.highlight });
      return;
    }
    case 'update':
      await api('PATCH', `/highlights/${encodeURIComponent(change.id)}`, change.patch);
      return;
    case 'delete':
      await api('DELETE', `/highlights/${encodeURIComponent(change.id)}`).catch((error) => {
        // Already gone is what was asked.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      });
      return;
  }
}

let flushing: Promise<void> | null = null;
/** Sends what waited, in order; stops at the first change the server still cannot take. */
function flush(): Promise<void> {
  flushing ??= (async () => {
    for (;;) {
      const { queue, token } = await readStored();
      const next = queue[0];
      if (!next || !token) return;
      try {
        await apply(next);
      } catch (error) {
        if (error instanceof ApiError && error.kind !== 'refused') return;
        // Refused for good (its note deleted meanwhile, say): kept in lastError, not retried forever.
      }
      await updateQueue((items) => items.slice(1));
    }
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}

/** The page as the tab's top frame renders it now, or null where no content script answers. */
async function collectFrom(tabId: number | undefined): Promise<CollectedPage | null> {
  if (tabId === undefined) return null;
  const collect: BackgroundToContent = { type: 'collect' };
  const page = (await chrome.tabs.sendMessage(tabId, collect, { frameId: 0 }).catch(() => null)) as
    | CollectedPage
    | null
    | undefined;
  return page ?? null;
}

/**
 * A highlight made on a page: its note is the saved page, saved first (as rendered) when it is
 * not yet. Offline, the save and the highlight wait in the queue, in that order.
 */
async function createHighlight(
  request: Extract<ContentRequest, { type: 'create' }>,
  tabId: number | undefined,
) {
  const { queue } = await readStored();
  let rendered: CollectedPage | null = null;
  if (queue.length === 0) {
    try {
      const page = await pageOf(undefined, request.url, true);
      rendered = page?.note ? null : await collectFrom(tabId);
      const noteId =
        page?.note?.id ?? (rendered ? await saveRendered(rendered) : await saveLink(request.url));
      await api('POST', '/highlights', { ...request.highlight, noteId, coreType: CoreType.highlight });
      return 'done' as const;
    } catch (error) {
      if (!(error instanceof ApiError && error.kind === 'offline')) throw error;
    }
  }
  rendered ??= await collectFrom(tabId);
  await updateQueue((items) => {
    const saving = items.some((c) => c.kind === 'save' && c.url === request.url);
    return [
      ...items,
      ...(rendered && !saving ? [{ kind: 'save', ...rendered, url: request.url } as const] : []),
      { kind: 'create', url: request.url, title: request.title, highlight: request.highlight },
    ];
  });
  return 'queued' as const;
}

// ── Connecting (the device flow) ───────────────────────────────────────────────────────────

let polling = false;
async function waitForConfirmation(): Promise<void> {
  if (polling) return;
  polling = true;
  try {
    const until = Date.now() + POLL_FOR_MS;
    while (Date.now() < until) {
      const { server, connecting } = await readStored();
      if (!connecting?.userCode) return;
      try {
        const token = await pollToken(server, connecting);
        if (token) {
          await writeStored({ token, connecting: null, lastError: null });
          await refreshSettings();
          await flush();
          return;
        }
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'refused') break;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
    }
    await writeStored({ connecting: null, lastError: await t('extension.connectTimedOut') });
  } finally {
    polling = false;
  }
}

async function connect(input: string): Promise<void> {
  const server = normalizeServer(input);
  if (!server) throw new Error(await t('extension.serverInvalid'));
  const connecting = { clientId: newClientId(), userCode: newDeviceCode() };
  // The first poll registers the code before the page's address (the client id) is out.
  await pollToken(server, connecting);
  await writeStored({ server, connecting, token: null, settings: null, lastError: null });
  await chrome.tabs.create({ url: `${server}${confirmPagePath(EXTENSION_SERVICE_ID, connecting.clientId)}` });
  void waitForConfirmation();
}

// ── Messages ───────────────────────────────────────────────────────────────────────────────

/** The code to fill in when `url` is the confirmation page this extension opened and waits on. */
function confirmingCode(url: string, stored: Stored): string | null {
  const { server, connecting } = stored;
  if (!connecting?.userCode) return null;
  return url === `${server}${confirmPagePath(EXTENSION_SERVICE_ID, connecting.clientId)}`
    ? connecting.userCode
    : null;
}

async function isAppPage(url: string | undefined): Promise<boolean> {
  if (!url) return false;
  const { server } = await readStored();
  return url.startsWith(`${server}/`) || url === server;
}

/**
 * What a frame needs at load. Every frame of a tab belongs to the tab's page: highlights made in
 * an iframe are the page's, and each frame paints those it finds.
 */
async function hello(url: string, sender: chrome.runtime.MessageSender): Promise<PageAnswer> {
  const stored = await readStored();
  const app = (await isAppPage(url)) ? { mkt: market(), v: __VERSION__, mktv: __VERSION__ } : null;
  if (!stored.token || app) {
    const deviceCode = app ? confirmingCode(url, stored) : null;
    return { settings: null, language: 'en', messages: {}, highlights: [], readerUrl: null, app, deviceCode };
  }
  const settings = stored.settings ?? (await refreshSettings());
  const language = pickLanguage(settings?.language);
  const page = await pageOf(sender.tab?.id, sender.tab?.url ?? url);
  return {
    settings,
    language,
    messages: messagesFor(language),
    highlights: page?.highlights ?? [],
    readerUrl: page?.note?.readerUrl ?? null,
    app,
    deviceCode: null,
  };
}

function frameOf(sender: chrome.runtime.MessageSender) {
  return { tabId: sender.tab?.id, topUrl: sender.tab?.url && withoutHash(sender.tab.url) };
}

async function fromContent(message: ContentRequest, sender: chrome.runtime.MessageSender): Promise<unknown> {
  const { tabId, topUrl } = frameOf(sender);
  switch (message.type) {
    case 'hello':
      return hello(message.url, sender);
    case 'create': {
      const outcome = await createHighlight({ ...message, url: topUrl ?? message.url }, tabId);
      if (tabId !== undefined && topUrl) void pageOf(tabId, topUrl, true);
      return outcome;
    }
    case 'update':
      return runOrQueue({ kind: 'update', id: message.id, patch: message.patch });
    case 'delete': {
      const outcome = await runOrQueue({ kind: 'delete', id: message.id });
      if (tabId !== undefined && topUrl) void pageOf(tabId, topUrl, true);
      return outcome;
    }
    case 'save': {
      const outcome = await runOrQueue({
        kind: 'save',
        url: message.url,
        title: message.title,
        html: message.html,
      });
      if (tabId !== undefined) await repaint(tabId, message.url);
      return outcome;
    }
    case 'anchored': {
      const known = tabId === undefined ? undefined : tabs.get(tabId);
      for (const id of message.ids) known?.anchored.add(id);
      return null;
    }
    case 'suggestServer': {
      // A Margin the user opened is the server to connect to, unless they chose one already.
      const stored = await readStored();
      if (!stored.token && !stored.connecting && stored.server === defaultServer())
        await writeStored({ server: normalizeServer(message.origin) ?? stored.server });
      return null;
    }
    case 'orphans': {
      const known = tabId === undefined ? undefined : tabs.get(tabId);
      return (known?.page?.highlights ?? []).filter((h) => !known?.anchored.has(h.id));
    }
  }
}

async function status(tabId: number | undefined): Promise<Status> {
  const stored = await readStored();
  const tab = tabId === undefined ? undefined : await chrome.tabs.get(tabId).catch(() => undefined);
  const page = stored.token && tab?.url?.startsWith('http') ? await pageOf(tab.id, tab.url) : null;
  return {
    server: stored.server,
    connected: Boolean(stored.token),
    connecting: stored.connecting?.userCode ? formatDeviceCode(stored.connecting.userCode) : null,
    lastError: stored.lastError,
    queued: stored.queue.length,
    language: pickLanguage(stored.settings?.language),
    page: tab?.url?.startsWith('http')
      ? {
          saved: Boolean(page?.note),
          highlightCount: page?.note?.highlightCount ?? 0,
          readerUrl: page?.note?.readerUrl ?? null,
        }
      : null,
  };
}

async function collectAndSave(tabId: number): Promise<void> {
  const page = await collectFrom(tabId);
  if (!page) throw new Error(await t('extension.cannotSaveHere'));
  await runOrQueue({ kind: 'save', ...page });
  await repaint(tabId, page.url);
}

async function fromPopup(message: PopupRequest & { tabId?: number }): Promise<unknown> {
  switch (message.type) {
    case 'status':
      void flush();
      void refreshSettings();
      void resumeConnecting();
      return status(message.tabId);
    case 'connect':
      await connect(message.server);
      return status(undefined);
    case 'disconnect':
      await writeStored({ token: null, settings: null, connecting: null, lastError: null });
      return status(undefined);
    case 'saveTab':
      await collectAndSave(message.tabId);
      return status(message.tabId);
    case 'showPanel':
      await chrome.tabs.sendMessage(message.tabId, { type: 'showPanel' } satisfies BackgroundToContent, {
        frameId: 0,
      });
      return null;
    case 'flush':
      await flush();
      return status(undefined);
  }
}

chrome.runtime.onMessage.addListener((message: ContentRequest | PopupRequest, sender, sendResponse) => {
  // The popup is the extension's own page (a test may open it in a tab); everything else is a page's frame.
  const fromPage = !sender.url?.startsWith(chrome.runtime.getURL(''));
  const answer = fromPage
    ? fromContent(message as ContentRequest, sender)
    : fromPopup(message as PopupRequest & { tabId?: number });
  answer.then(
    (value) => sendResponse({ ok: true, value }),
    (error: Error) => sendResponse({ ok: false, error: error.message }),
  );
  return true;
});

// ── Menus, alarms, start ───────────────────────────────────────────────────────────────────

async function createMenus() {
  await chrome.contextMenus.removeAll();
  chrome.contextMenus.create({
    id: 'save-page',
    title: await t('extension.menuSavePage'),
    contexts: ['page'],
  });
  chrome.contextMenus.create({
    id: 'save-link',
    title: await t('extension.menuSaveLink'),
    contexts: ['link'],
  });
  chrome.contextMenus.create({
    id: 'highlight',
    title: await t('extension.menuHighlight'),
    contexts: ['selection'],
  });
}

// A menu click has nowhere to show an error; a refusal is kept in lastError for the popup.
chrome.contextMenus.onClicked.addListener((info, tab) => {
  const tabId = tab?.id;
  if (info.menuItemId === 'save-link' && info.linkUrl) void saveLink(info.linkUrl).catch(() => undefined);
  else if (info.menuItemId === 'save-page' && tabId !== undefined)
    void collectAndSave(tabId).catch(() => undefined);
  else if (info.menuItemId === 'highlight' && tabId !== undefined)
    void chrome.tabs.sendMessage(tabId, { type: 'highlightSelection' }, { frameId: info.frameId ?? 0 });
});

chrome.tabs.onRemoved.addListener((tabId) => tabs.delete(tabId));
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url) tabs.delete(tabId);
  // A reload starts the page over: what is on it is reported again by its frames.
  else if (change.status === 'loading') tabs.get(tabId)?.anchored.clear();
});

chrome.runtime.onInstalled.addListener(() => {
  void createMenus();
  void chrome.alarms.create(FLUSH_ALARM, { periodInMinutes: 1 });
  void chrome.alarms.create(SETTINGS_ALARM, { periodInMinutes: 30 });
});
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === FLUSH_ALARM) {
    void flush();
    void resumeConnecting();
  }
  if (alarm.name === SETTINGS_ALARM) void refreshSettings().then(() => createMenus());
});
chrome.storage.onChanged.addListener((changes) => {
  if (changes.settings) void createMenus();
});

/**
 * Goes on waiting for the user's confirmation if it was cut short: the browser stops an idle
 * worker, and a stopped one runs again only for an event (a message, an alarm, its start).
 */
async function resumeConnecting() {
  if ((await readStored()).connecting) await waitForConfirmation();
}

void resumeConnecting();
