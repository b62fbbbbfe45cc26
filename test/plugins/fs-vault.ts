import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Vault } from '../../plugins/core/vault.ts';

/** The core's Vault over a plain directory: what the tests sync into. */
export class FsVault implements Vault {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  private full(path: string): string {
    return join(this.root, ...path.split('/'));
  }

  async read(path: string): Promise<string | null> {
    return readFile(this.full(path), 'utf8').catch(() => null);
  }

  async write(path: string, text: string): Promise<void> {
    await mkdir(dirname(this.full(path)), { recursive: true });
    await writeFile(this.full(path), text);
  }

  async rename(from: string, to: string): Promise<void> {
    await mkdir(dirname(this.full(to)), { recursive: true });
    await rename(this.full(from), this.full(to));
  }

  async remove(path: string): Promise<void> {
    await rm(this.full(path), { force: true });
  }

  async exists(path: string): Promise<boolean> {
    return stat(this.full(path)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  async list(folder: string): Promise<string[]> {
    const entries = await readdir(this.full(folder), { recursive: true, withFileTypes: true }).catch(
      () => [],
    );
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => relative(this.root, join(entry.parentPath, entry.name)).split(sep).join('/'));
  }
}
