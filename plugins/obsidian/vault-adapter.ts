import { type App, normalizePath, TFile } from 'obsidian';
import { dirName, isUnder, type Vault } from '../core/vault.ts';

/** The core's Vault over `app.vault`; renames and removals go through the file manager. */
export class ObsidianVault implements Vault {
  private readonly app: App;

  constructor(app: App) {
    this.app = app;
  }

  async read(path: string): Promise<string | null> {
    const file = this.file(path);
    return file ? this.app.vault.read(file) : null;
  }

  async write(path: string, text: string): Promise<void> {
    const file = this.file(path);
    if (file) {
      await this.app.vault.modify(file, text);
      return;
    }
    await this.ensureFolder(dirName(path));
    await this.app.vault.create(normalizePath(path), text);
  }

  async rename(from: string, to: string): Promise<void> {
    const file = this.file(from);
    if (!file) return;
    await this.ensureFolder(dirName(to));
    // The file manager also updates links to the note elsewhere in the vault.
    await this.app.fileManager.renameFile(file, normalizePath(to));
  }

  async remove(path: string): Promise<void> {
    const file = this.file(path);
    // Trash per the user's "deleted files" preference, not a hard delete.
    if (file) await this.app.fileManager.trashFile(file);
  }

  async exists(path: string): Promise<boolean> {
    return this.file(path) !== null;
  }

  async list(folder: string): Promise<string[]> {
    const root = folder ? normalizePath(folder) : '';
    return this.app.vault
      .getFiles()
      .map((file) => file.path)
      .filter((path) => isUnder(path, root));
  }

  private file(path: string): TFile | null {
    const found = this.app.vault.getAbstractFileByPath(normalizePath(path));
    return found instanceof TFile ? found : null;
  }

  private async ensureFolder(folder: string): Promise<void> {
    if (!folder) return;
    const path = normalizePath(folder);
    if (!this.app.vault.getAbstractFileByPath(path)) await this.app.vault.createFolder(path);
  }
}
