import type { DailySaveInput, DailySaveResult } from '../../../src/schemas/daily.ts';
import { errorData } from '../../lib/errors.ts';
import { clearDraft, type DailyDraft, draftKey, readDraft, writeDraft } from './draft-store.ts';

/** Autosave waits this long after the last keystroke. */
const AUTOSAVE_DEBOUNCE_MS = 800;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

export type SaveStatus = 'loading' | 'saved' | 'saving' | 'offline' | 'error';

/** The server's merge-aware save (daily.save), of which the saver reads the merged text and version. */
export type SaveFn = (input: DailySaveInput) => Promise<Pick<DailySaveResult, 'text' | 'version' | 'merged'>>;

export interface SaverSnapshot {
  text: string;
  status: SaveStatus;
}

/** Refusals that retrying cannot fix (validation, permissions); everything else is retried. */
function isPermanent(error: unknown): boolean {
  const status = errorData(error)?.httpStatus;
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * The autosave of one user's note for one day, independent of React so it keeps working while
 * the page is hidden (kept alive) and across switching days.
 *
 * - `base` is the last text and version the server confirmed; each save sends the editor text
 *   with that base, and the server merges line by line when its version moved on meanwhile.
 * - Every edit is written to localStorage first (draft-store.ts) and cleared only once the server
 *   holds that exact text; a draft found on load is restored and sent (merging from its base).
 * - Network failures retry with exponential backoff, and at once when the browser is back online.
 */
export class DailySaver {
  readonly date: string;
  private readonly key: string;
  private readonly save: SaveFn;
  private text = '';
  private base: { text: string; version: number } | null = null;
  private inFlight = false;
  private failure: 'offline' | 'error' | null = null;
  private retryMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private snapshot: SaverSnapshot = { text: '', status: 'loading' };
  private readonly listeners = new Set<() => void>();

  constructor(accountId: string, date: string, save: SaveFn) {
    this.date = date;
    this.key = draftKey(accountId, date);
    this.save = save;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SaverSnapshot => this.snapshot;

  /** True when the editor holds nothing the server lacks. */
  private get clean(): boolean {
    return this.base !== null && !this.inFlight && this.text === this.base.text;
  }

  private emit(): void {
    const status: SaveStatus =
      this.base === null
        ? 'loading'
        : (this.failure ?? (this.inFlight || this.text !== this.base.text ? 'saving' : 'saved'));
    if (status === this.snapshot.status && this.text === this.snapshot.text) return;
    this.snapshot = { text: this.text, status };
    for (const listener of this.listeners) listener();
  }

  /** The server's copy of the day (first load or a refetch). */
  receive(day: { text: string; version: number }): void {
    if (this.base === null) {
      this.base = { text: day.text, version: day.version };
      this.text = day.text;
      const draft = readDraft(this.key);
      if (draft && draft.text !== day.text) this.restore(draft);
      else clearDraft(this.key);
    } else if (this.clean && day.version > this.base.version) {
      // Written elsewhere (another tab, a quick entry, a moved highlight) while we had no edits.
      this.base = { text: day.text, version: day.version };
      this.text = day.text;
    }
    this.emit();
  }

  /** Unsent edits from an earlier visit: show them and send them, merged from where they started. */
  private restore(draft: DailyDraft): void {
    this.text = draft.text;
    this.base = { text: draft.baseText, version: draft.baseVersion };
    this.schedule(0);
  }

  edit(text: string): void {
    if (this.base === null || text === this.text) return;
    this.text = text;
    this.keepDraft();
    if (this.failure === 'error') this.failure = null;
    this.schedule(
      this.failure === 'offline' ? Math.max(this.retryMs, AUTOSAVE_DEBOUNCE_MS) : AUTOSAVE_DEBOUNCE_MS,
    );
    this.emit();
  }

  private keepDraft(): void {
    if (!this.base) return;
    writeDraft(this.key, {
      text: this.text,
      baseText: this.base.text,
      baseVersion: this.base.version,
      at: Date.now(),
    });
  }

  /** Send now (the browser came back online, or the page is being hidden). */
  flushNow(): void {
    if (this.base && !this.clean) this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
  }

  private async flush(): Promise<void> {
    const from = this.base;
    if (from === null || this.inFlight) return;
    if (this.text === from.text) {
      clearDraft(this.key);
      this.emit();
      return;
    }
    const sent = this.text;
    this.inFlight = true;
    this.emit();
    try {
      const answer = await this.save({
        date: this.date,
        text: sent,
        baseText: from.text,
        baseVersion: from.version,
      });
      this.inFlight = false;
      this.failure = null;
      this.retryMs = 0;
      if (this.text === sent) {
        // Nothing typed since: take the server's text (the merged one when another edit came in).
        this.text = answer.text;
        this.base = { text: answer.text, version: answer.version };
        clearDraft(this.key);
      } else {
        // Typed meanwhile: keep the editor as it is. After a merge, the next save merges again
        // from what we sent — a base version the server no longer holds forces that merge, so the
        // other edit that came in is kept together with the new typing.
        this.base = answer.merged
          ? { text: sent, version: answer.version - 1 }
          : { text: answer.text, version: answer.version };
        this.keepDraft();
        this.schedule(AUTOSAVE_DEBOUNCE_MS);
      }
    } catch (error) {
      this.inFlight = false;
      if (isPermanent(error)) {
        this.failure = 'error';
      } else {
        this.failure = 'offline';
        this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs ? this.retryMs * 2 : RETRY_FIRST_MS);
        this.schedule(this.retryMs);
      }
    }
    this.emit();
  }

  /** The browser reports it is offline: say so now rather than at the next failed save. */
  wentOffline(): void {
    if (!this.clean && this.base) {
      this.failure = 'offline';
      this.emit();
    }
  }

  wentOnline(): void {
    this.retryMs = 0;
    this.flushNow();
  }
}

const savers = new Map<string, DailySaver>();

function watchConnectivity(): void {
  window.addEventListener('online', () => {
    for (const saver of savers.values()) saver.wentOnline();
  });
  window.addEventListener('offline', () => {
    for (const saver of savers.values()) saver.wentOffline();
  });
}

/** The one saver per user and day, shared by every view of that day for the page's lifetime. */
export function saverFor(accountId: string, date: string, save: SaveFn): DailySaver {
  const key = draftKey(accountId, date);
  let saver = savers.get(key);
  if (!saver) {
    // Listeners live as long as the page, so a kept-alive hidden editor still retries on `online`.
    if (savers.size === 0) watchConnectivity();
    saver = new DailySaver(accountId, date, save);
    savers.set(key, saver);
  }
  return saver;
}

/** Whether a saver for this user and day exists (it then holds the day's latest state). */
export function hasSaver(accountId: string, date: string): boolean {
  return savers.has(draftKey(accountId, date));
}
