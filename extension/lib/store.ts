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
  /** The device flow's client id while the user confirms in the browser. */
  connecting: string | null;
  settings: ExtensionSettings | null;
  queue: QueuedChange[];
  lastError: string | null;
}

/** The server a fresh install points at: the public site; self-hosters type their own. */
export const DEFAULT_SERVER = 'https://margin.example';

const DEFAULTS: Stored = {
  server: DEFAULT_SERVER,
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
