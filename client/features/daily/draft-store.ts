/**
 * Unsent daily-note edits kept in localStorage, one entry per user and day, so that a reload,
 * a crash or a dropped connection never loses what was typed. An entry exists only while the
 * server has not confirmed the text.
 */
export interface DailyDraft {
  text: string;
  /** The server text and version the edit started from (what the next save merges against). */
  baseText: string;
  baseVersion: number;
  /** When it was typed (ms since epoch). */
  at: number;
}

const PREFIX = 'margin.dailyDraft.';

export function draftKey(accountId: string, date: string): string {
  return `${PREFIX}${accountId}.${date}`;
}

function isDraft(value: unknown): value is DailyDraft {
  const d = value as DailyDraft | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.text === 'string' &&
    typeof d.baseText === 'string' &&
    Number.isInteger(d.baseVersion) &&
    typeof d.at === 'number'
  );
}

export function readDraft(key: string): DailyDraft | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    return isDraft(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, draft: DailyDraft): void {
  try {
    localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the edit still lives in memory and goes out with the next save.
  }
}

export function clearDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing to clean up when storage is unavailable.
  }
}

/** The days (YYYY-MM-DD) this user has unsent drafts for. */
export function draftDates(accountId: string): string[] {
  const prefix = `${PREFIX}${accountId}.`;
  const dates: string[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix)) dates.push(key.slice(prefix.length));
    }
  } catch {
    return [];
  }
  return dates.filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d));
}
