/** How many saves are sent at once; the rest wait their turn. */
export const SAVE_CONCURRENCY = 2;

/** waiting → saving → saved (a new note) | known (already in the library) | failed (Retry). */
export type SaveState = 'waiting' | 'saving' | 'saved' | 'known' | 'failed';

export interface QueuedSave {
  readonly id: number;
  /** The address as sent (https added to one typed without a scheme). */
  readonly url: string;
  readonly state: SaveState;
  readonly noteId: string | null;
  /** Saved before and its failed clip queued again. */
  readonly retried: boolean;
  readonly error: unknown;
}

/** The server's save (notes.clip); saving an address twice answers the same note, not a second one. */
export type SaveFn = (url: string) => Promise<{ note: { id: string }; created: boolean; retried: boolean }>;

/**
 * The addresses the user asked to save, each with its own state, saved a few at a time. An
 * address already waiting or being saved is not queued twice. Retrying is harmless: the server
 * finds the note a lost answer had already made, and since that save was this entry's own, the
 * entry then reads "saved" rather than "already in your library".
 */
export class SaveQueue {
  private entries: readonly QueuedSave[] = [];
  private readonly failedOnce = new Set<number>();
  private running = 0;
  private lastId = 0;
  private readonly listeners = new Set<() => void>();
  private readonly save: SaveFn;

  constructor(save: SaveFn) {
    this.save = save;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): readonly QueuedSave[] => this.entries;

  add(urls: readonly string[]): void {
    const active = new Set(
      this.entries.filter((e) => e.state === 'waiting' || e.state === 'saving').map((e) => keyOf(e.url)),
    );
    const added: QueuedSave[] = [];
    for (const url of urls) {
      const key = keyOf(url);
      if (active.has(key)) continue;
      active.add(key);
      added.push({ id: ++this.lastId, url, state: 'waiting', noteId: null, retried: false, error: null });
    }
    if (!added.length) return;
    this.entries = [...added.reverse(), ...this.entries];
    this.changed();
  }

  retry(id: number): void {
    if (this.entryOf(id)?.state !== 'failed') return;
    this.update(id, { state: 'waiting', error: null });
  }

  /** Takes a finished or waiting entry off the list (one being saved finishes first). */
  dismiss(id: number): void {
    if (this.entryOf(id)?.state === 'saving') return;
    this.entries = this.entries.filter((e) => e.id !== id);
    this.failedOnce.delete(id);
    this.changed();
  }

  private entryOf(id: number): QueuedSave | undefined {
    return this.entries.find((e) => e.id === id);
  }

  private update(id: number, change: Partial<QueuedSave>): void {
    this.entries = this.entries.map((e) => (e.id === id ? { ...e, ...change } : e));
    this.changed();
  }

  private changed(): void {
    this.pump();
    for (const listener of this.listeners) listener();
  }

  /** Starts waiting saves, oldest first, while fewer than SAVE_CONCURRENCY run. */
  private pump(): void {
    while (this.running < SAVE_CONCURRENCY) {
      const next = this.entries.findLast((e) => e.state === 'waiting');
      if (!next) return;
      this.running++;
      this.entries = this.entries.map((e) => (e.id === next.id ? { ...e, state: 'saving' } : e));
      void this.run(next);
    }
  }

  private async run(entry: QueuedSave): Promise<void> {
    let change: Partial<QueuedSave>;
    try {
      const { note, created, retried } = await this.save(entry.url);
      const own = created || this.failedOnce.has(entry.id);
      change = { state: own ? 'saved' : 'known', noteId: note.id, retried };
    } catch (error) {
      this.failedOnce.add(entry.id);
      change = { state: 'failed', error };
    }
    this.running--;
    // An entry being saved cannot be dismissed: it is still there to take its answer.
    this.update(entry.id, change);
  }
}

/**
 * The same address however it was written (host case, default port, fragment). Not the server's
 * normalizeNoteUrl: using it here would pull its rules into the home route's first load.
 */
function keyOf(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}
