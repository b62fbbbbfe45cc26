import type { BatchBlock, LogseqBlock, LogseqEditor, LogseqPage } from '../../plugins/logseq/logseq-api.ts';

interface StoredBlock {
  uuid: string;
  content: string;
  children: StoredBlock[];
}

/**
 * An in-memory stand-in for the part of Logseq's Editor API the plugin uses: pages by
 * case-blind name, each a tree of blocks. Only Logseq itself is faked here, never Margin.
 */
export class FakeLogseqEditor implements LogseqEditor {
  readonly pages = new Map<string, { page: LogseqPage; blocks: StoredBlock[] }>();
  private next = 0;

  private uuid(): string {
    return `u${++this.next}`;
  }

  private entry(name: string) {
    return this.pages.get(name.toLowerCase());
  }

  private stored(batch: BatchBlock): StoredBlock {
    return {
      uuid: this.uuid(),
      content: batch.content,
      children: (batch.children ?? []).map((b) => this.stored(b)),
    };
  }

  /** The list a block lives in, and its index there. */
  private locate(uuid: string): { siblings: StoredBlock[]; index: number } | null {
    const search = (list: StoredBlock[]): { siblings: StoredBlock[]; index: number } | null => {
      for (const [index, block] of list.entries()) {
        if (block.uuid === uuid) return { siblings: list, index };
        const inner = search(block.children);
        if (inner) return inner;
      }
      return null;
    };
    for (const { blocks } of this.pages.values()) {
      const found = search(blocks);
      if (found) return found;
    }
    return null;
  }

  async getPage(name: string) {
    return this.entry(name)?.page ?? null;
  }

  async createPage(name: string) {
    const page = { uuid: this.uuid(), name: name.toLowerCase(), originalName: name };
    this.pages.set(name.toLowerCase(), { page, blocks: [] });
    return page;
  }

  async deletePage(name: string) {
    this.pages.delete(name.toLowerCase());
  }

  async renamePage(oldName: string, newName: string) {
    const entry = this.entry(oldName);
    if (!entry) throw new Error(`no page ${oldName}`);
    this.pages.delete(oldName.toLowerCase());
    entry.page = { ...entry.page, name: newName.toLowerCase(), originalName: newName };
    this.pages.set(newName.toLowerCase(), entry);
  }

  async getAllPages() {
    return [...this.pages.values()].map(({ page }) => page);
  }

  async getPageBlocksTree(name: string): Promise<LogseqBlock[] | null> {
    return this.entry(name)?.blocks ?? null;
  }

  async appendBlockInPage(name: string, content: string) {
    const entry = this.entry(name);
    if (!entry) return null;
    const block = this.stored({ content });
    entry.blocks.push(block);
    return block;
  }

  async insertBatchBlock(target: string, batch: BatchBlock[], options?: { sibling?: boolean }) {
    const found = this.locate(target);
    if (!found) throw new Error(`no block ${target}`);
    const blocks = batch.map((b) => this.stored(b));
    if (options?.sibling) found.siblings.splice(found.index + 1, 0, ...blocks);
    else found.siblings[found.index]!.children.push(...blocks);
    return blocks;
  }

  async removeBlock(uuid: string) {
    const found = this.locate(uuid);
    found?.siblings.splice(found.index, 1);
  }
}
