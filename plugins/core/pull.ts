import type { SyncedNote, WriteStyle } from '../../src/schemas/sync.ts';
import type { SyncApi } from './api.ts';
import { mergeBlocks, outsideBlocks } from './blocks.ts';
import { NoteLocator } from './locate.ts';
import { type NoteFile, textHash } from './state.ts';
import { dirName, isUnder, joinPath, type Vault } from './vault.ts';

// Typed against the shared schema; a value import would bundle zod into the plugins.
const PARTIAL: (typeof WriteStyle)['partial'] = 2;

export interface PullInput {
  api: SyncApi;
  vault: Vault;
  clientId: string;
  /** The cursor this client acknowledged last; null asks for everything. */
  cursor: string | null;
  /** noteId → file; updated in place as files are written, so progress survives a failure. */
  notes: Record<string, NoteFile>;
  /** The user's local folder; empty to use the server's. */
  folderOverride: string;
}

export interface PullResult {
  folder: string;
  cursor: string;
  written: number;
  renamed: number;
  removed: number;
  /** Files of deleted notes left in place because the user edited them (partial mode). */
  kept: string[];
}

/** One sync: init, download every page, write and remove files, then acknowledge the cursor. */
export async function pull(input: PullInput): Promise<PullResult> {
  const { api, vault, clientId, notes } = input;
  const fromStart = input.cursor === null || !(await anyFileLeft(vault, notes));
  const init = await api.init(clientId, fromStart);
  const folder = joinPath(input.folderOverride.trim() || init.settings.folder);
  const writer = new NoteWriter(vault, folder, init.settings.writeStyle === PARTIAL, notes);

  // The server keeps one cursor per integration, shared by the user's devices: this device goes
  // on from its own, unless the server's was reset ("run once", a new connection).
  let cursor = init.cursor === null ? null : (input.cursor ?? init.cursor);
  for (;;) {
    const page = await api.download(clientId, cursor);
    for (const note of page.notes) await writer.write(note);
    for (const noteId of page.deleted) await writer.remove(noteId);
    const moved = page.cursor !== cursor;
    cursor = page.cursor;
    // A cursor that does not move would loop forever: stop and let the next sync go on.
    if (!page.hasMore || !moved) break;
  }
  await api.ack(clientId, cursor);
  return { folder, cursor, ...writer.counts };
}

/** When every remembered file is gone (the folder was deleted), the client starts over. */
async function anyFileLeft(vault: Vault, notes: Record<string, NoteFile>): Promise<boolean> {
  const files = Object.values(notes);
  if (files.length === 0) return true;
  for (const file of files) if (await vault.exists(file.path)) return true;
  return false;
}

class NoteWriter {
  readonly counts = { written: 0, renamed: 0, removed: 0, kept: [] as string[] };
  private readonly locator: NoteLocator;
  private readonly vault: Vault;
  private readonly folder: string;
  private readonly partial: boolean;
  private readonly notes: Record<string, NoteFile>;

  constructor(vault: Vault, folder: string, partial: boolean, notes: Record<string, NoteFile>) {
    this.vault = vault;
    this.folder = folder;
    this.partial = partial;
    this.notes = notes;
    this.locator = new NoteLocator(vault, folder, notes);
  }

  /** Writes a note to its one file, renaming that file when the note's file name changed. */
  async write(note: SyncedNote): Promise<void> {
    const current = await this.locator.find(note.id);
    let path = this.targetPath(current, note.fileName);
    if (current && current !== path) {
      // Another file already has the new name: keep writing the old one rather than clobber it.
      if (await this.vault.exists(path)) path = current;
      else {
        await this.vault.rename(current, path);
        this.counts.renamed++;
      }
    }
    const before = current ? await this.vault.read(path) : null;
    const merging = this.partial && before !== null;
    const merged = merging ? mergeBlocks(before, note.markdown) : note.markdown;
    const text = this.vault.canonical?.(merged) ?? merged;
    if (text !== before) {
      await this.vault.write(path, merged);
      this.counts.written++;
    }
    // A merge leaves the text outside the blocks as it was: what the plugin first wrote there
    // stays the measure of "no writing of the user's".
    const ownHash = merging ? (this.notes[note.id]?.ownHash ?? '') : textHash(outsideBlocks(text));
    this.notes[note.id] = { path, ownHash };
  }

  /**
   * Removes a deleted note's file. In partial mode the file may hold the user's own writing,
   * so it is removed only when its text outside the marked blocks is still what the plugin
   * wrote there; otherwise it stays (and is no longer synced).
   */
  async remove(noteId: string): Promise<void> {
    const path = await this.locator.find(noteId);
    const remembered = this.notes[noteId];
    delete this.notes[noteId];
    if (!path) return;
    if (this.partial) {
      const text = await this.vault.read(path);
      if (text !== null && textHash(outsideBlocks(text)) !== remembered?.ownHash) {
        this.counts.kept.push(path);
        return;
      }
    }
    await this.vault.remove(path);
    this.counts.removed++;
  }

  /** The note's file name in the folder it lives in (a subfolder the user moved it to stays). */
  private targetPath(current: string | null, fileName: string): string {
    const folder = current && isUnder(current, this.folder) ? dirName(current) : this.folder;
    return joinPath(folder, fileName.replace(/[\\/]/g, '-'));
  }
}
