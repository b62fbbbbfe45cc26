import type { NoteFile } from './state.ts';
import { baseName, type Vault } from './vault.ts';

/**
 * The ids a file name `<title>-<id>.md` may end with. Ids may hold hyphens themselves, so
 * every tail after a hyphen that could be an id is a candidate.
 */
export function idCandidates(fileName: string): string[] {
  if (!fileName.endsWith('.md')) return [];
  const stem = fileName.slice(0, -3);
  const candidates: string[] = [];
  for (let at = stem.indexOf('-'); at >= 0; at = stem.indexOf('-', at + 1)) {
    const tail = stem.slice(at + 1);
    if (/^[0-9A-Za-z-]{8,64}$/.test(tail)) candidates.push(tail);
  }
  return candidates;
}

// `margin_id: x` in YAML front matter, or `margin-id:: x` as a Logseq page property (Logseq
// writes property names with hyphens; either spelling is taken in either place).
const ID_PROPERTY = /^margin[_-]id::?[ \t]*["']?([0-9A-Za-z_-]+)["']?[ \t]*$/m;

/** The note id a file declares in its head (front matter, or leading Logseq properties). */
export function declaredNoteId(text: string): string | null {
  let head: string;
  if (/^---\r?\n/.test(text)) {
    const end = text.search(/\r?\n---[ \t]*(\r?\n|$)/);
    head = end < 0 ? '' : text.slice(0, end);
  } else {
    head = text.split(/\r?\n[ \t]*\r?\n/, 1)[0] ?? '';
  }
  return ID_PROPERTY.exec(head)?.[1] ?? null;
}

/**
 * Finds the file a note was written to: the remembered path, else a file in the folder that
 * declares the note's id, else one whose name ends with `-<id>.md`. The folder is scanned at
 * most once per sync, and only files no other note claims are read.
 */
export class NoteLocator {
  private index: Map<string, string> | null = null;
  private readonly vault: Vault;
  private readonly folder: string;
  private readonly notes: Readonly<Record<string, NoteFile>>;

  constructor(vault: Vault, folder: string, notes: Readonly<Record<string, NoteFile>>) {
    this.vault = vault;
    this.folder = folder;
    this.notes = notes;
  }

  async find(noteId: string): Promise<string | null> {
    const known = this.notes[noteId]?.path;
    if (known && (await this.vault.exists(known))) return known;
    this.index ??= await this.scan();
    const found = this.index.get(noteId);
    return found && (await this.vault.exists(found)) ? found : null;
  }

  private async scan(): Promise<Map<string, string>> {
    const claimed = new Set(Object.values(this.notes).map((note) => note.path));
    const byName = new Map<string, string>();
    const declared = new Map<string, string>();
    for (const path of await this.vault.list(this.folder)) {
      if (claimed.has(path) || !path.endsWith('.md')) continue;
      for (const id of idCandidates(baseName(path))) if (!byName.has(id)) byName.set(id, path);
      const id = declaredNoteId((await this.vault.read(path)) ?? '');
      if (id && !declared.has(id)) declared.set(id, path);
    }
    // A declared id is explicit; a name match is the fallback.
    return new Map([...byName, ...declared]);
  }
}
