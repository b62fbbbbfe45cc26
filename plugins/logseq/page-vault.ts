import { isUnder, type Vault } from '../core/vault.ts';
import type { LogseqEditor } from './logseq-api.ts';
import { parseOutline, serializeOutline } from './outline.ts';

/** `Margin/Title-id.md` ↔ the namespaced page `Margin/Title-id`. */
export function pageName(path: string): string {
  return path.replace(/\.md$/, '');
}

/**
 * The core's Vault over a Logseq graph: one page per file path, its text the page's blocks as
 * outline Markdown. The page's own file (pages/Margin___Title-id.md) is Logseq's business.
 */
export class PageVault implements Vault {
  private readonly editor: LogseqEditor;

  constructor(editor: LogseqEditor) {
    this.editor = editor;
  }

  async read(path: string): Promise<string | null> {
    const name = pageName(path);
    if (!(await this.editor.getPage(name))) return null;
    return serializeOutline((await this.editor.getPageBlocksTree(name)) ?? []);
  }

  /** Replaces the page's blocks: a placeholder block anchors the batch insert, then goes. */
  async write(path: string, text: string): Promise<void> {
    const name = pageName(path);
    const existing = await this.editor.getPage(name);
    if (existing) {
      for (const block of (await this.editor.getPageBlocksTree(name)) ?? [])
        await this.editor.removeBlock(block.uuid);
    } else {
      await this.editor.createPage(
        name,
        {},
        { redirect: false, createFirstBlock: false, format: 'markdown' },
      );
    }
    const blocks = parseOutline(text);
    if (blocks.length === 0) return;
    const anchor = await this.editor.appendBlockInPage(name, '');
    if (!anchor) throw new Error(`Logseq did not add a block to the page ${name}`);
    await this.editor.insertBatchBlock(anchor.uuid, blocks, { sibling: true });
    await this.editor.removeBlock(anchor.uuid);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.editor.renamePage(pageName(from), pageName(to));
  }

  async remove(path: string): Promise<void> {
    await this.editor.deletePage(pageName(path));
  }

  async exists(path: string): Promise<boolean> {
    return (await this.editor.getPage(pageName(path))) !== null;
  }

  /** Pages in the folder's namespace, with the case the user sees (Logseq matches names case-blind). */
  async list(folder: string): Promise<string[]> {
    const namespace = folder.toLowerCase();
    const pages = (await this.editor.getAllPages()) ?? [];
    return pages
      .map((page) => page.originalName ?? page.title ?? page.name)
      .filter((name) => isUnder(name.toLowerCase(), namespace))
      .map((name) => `${name}.md`);
  }

  canonical(text: string): string {
    return serializeOutline(parseOutline(text));
  }
}
