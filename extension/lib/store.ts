import { REGIONS, regionOfBrowser } from '../../src/regions.ts';
import type { ExtensionSettings } from '../../src/schemas/extension.ts';
import type { HighlightPatch, NewHighlight } from './messages.ts';

/** A change made while the server could not be reached, sent in order once it can. */
export type QueuedChange =
  | { kind: 'save'; url: string; title: string; html: string }
  | { kind: 'create'; url: string; title: string; highlight: NewHighlight }
  | { kind: 'update'; id: string; patch: HighlightPatch }
  | { kind: 'delete'; id: string };

/** What the extension keeps between browser sessions (chrome.storage.local). */
export interface Stored {
  server: string;
  token: string | null;
  /** The device flow's client id and the code shown, while the user confirms in the browser. */
  connecting: { clientId: string; userCode: string } | null;
  settings: ExtensionSettings | null;
  queue: QueuedChange[];
  lastError: string | null;
}

/**
 * The server a fresh install points at: the public site of the browser's region. Self-hosters
 * type their own, or it is suggested when they open their Margin (see `suggestServer`).
 */
export function defaultServer(): string {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return REGIONS[regionOfBrowser(navigator.languages, timeZone)].site;
}

const DEFAULTS: Stored = {
  server: defaultServer(),
  token: null,
  connecting: null,
  settings: null,
  queue: [],
  lastError: null,
};

export async function readStored(): Promise<Stored> {
  // Asked with the defaults, storage answers them for what it does not hold.
  return (await chrome.storage.local.get({ ...DEFAULTS })) as unknown as Stored;
}

export async function writeStored(patch: Partial<Stored>): Promise<void> {
  await chrome.storage.local.set(patch);
}

/** One change to the queue at a time: a read-modify-write never loses another's item. */
let queueLock: Promise<unknown> = Promise.resolve();
export function updateQueue(change: (queue: QueuedChange[]) => QueuedChange[]): Promise<QueuedChange[]> {
  const next = queueLock.then(async () => {
    const { queue } = await readStored();
    const updated = change(queue);
    await writeStored({ queue: updated });
    return updated;
  });
  queueLock = next.catch(() => undefined);
  return next;
}
