/** Where a note was written. */
export interface NoteFile {
  path: string;
  /**
   * A hash of the file's text outside the marked blocks as the plugin wrote it, before any
   * edit of the user's: a file whose outside text still hashes to it holds no writing of the
   * user's. Empty when unknown (a file found again by its id).
   */
  ownHash: string;
}

/** What a plugin keeps between runs (Obsidian's data.json, Logseq's plugin settings). */
export interface SyncState {
  token: string | null;
  clientId: string | null;
  /** The cursor last acknowledged to the server; null until the first full sync. */
  cursor: string | null;
  /** noteId → its file. */
  notes: Record<string, NoteFile>;
  /** Epoch ms of the last successful sync. */
  lastSyncAt: number | null;
}

export function emptyState(): SyncState {
  return { token: null, clientId: null, cursor: null, notes: {}, lastSyncAt: null };
}

/** A state read back from storage, whatever older or partial shape it has. */
export function restoreState(saved: unknown): SyncState {
  const value = (saved && typeof saved === 'object' ? saved : {}) as Partial<SyncState>;
  return {
    ...emptyState(),
    ...value,
    notes: value.notes && typeof value.notes === 'object' ? { ...value.notes } : {},
  };
}

/** FNV-1a, 32 bits, over UTF-16 code units: enough to notice that a file changed. */
export function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
