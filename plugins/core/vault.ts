/**
 * The file store a shell gives the core: an Obsidian vault, a Logseq graph's pages, a plain
 * directory in tests. Paths are relative, `/`-separated, without a leading slash.
 */
export interface Vault {
  /** The file's text, or null when there is no such file. */
  read(path: string): Promise<string | null>;
  /** Creates or replaces the file, making missing parent folders. */
  write(path: string, text: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** Every file under `folder`, at any depth (empty when the folder does not exist). */
  list(folder: string): Promise<string[]>;
  /**
   * What `read` gives back after `write(text)`, for a store that does not keep text verbatim
   * (Logseq keeps blocks, not files). Omitted: the text itself.
   */
  canonical?(text: string): string;
}

/**
 * Joins path parts, dropping empty parts, stray slashes and `.`/`..` segments: whatever a folder
 * setting says, a path stays inside the vault.
 */
export function joinPath(...parts: string[]): string {
  return parts
    .flatMap((part) => part.split(/[\\/]+/))
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .join('/');
}

export function dirName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Is `path` inside `folder` (at any depth)? The vault root holds everything. */
export function isUnder(path: string, folder: string): boolean {
  return folder === '' || path.startsWith(`${folder}/`);
}
