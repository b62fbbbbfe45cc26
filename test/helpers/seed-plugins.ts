// What the seed product's public plugins (Obsidian, Logseq, SiYuan; read from their sources)
// do with the entries they download, restated here so that tests of Margin's seed front check
// entries the way those plugins read them. Only behaviour a user sees is restated.

/** A downloaded entry, as far as the plugins' behaviour restated here reads it. */
export interface SeedPluginEntry {
  noteIdX: string;
  title: string;
  url: string;
  pageNote: string;
  tags: string[];
  highlights: { note: string; refid: string; refurl: string }[];
}

/**
 * The tags the Obsidian and SiYuan plugins render: a tag starting with `#` or `[` is kept (turned
 * into the other form when the user's style is the other one), anything else is dropped; runs of
 * whitespace become `-` first.
 */
export function renderedTags(tags: string[], hashStyle: boolean): string {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().replace(/\s+/g, '-');
    const core = tag.startsWith('#') ? tag.slice(1) : tag.startsWith('[') ? tag.slice(2, -2).trim() : '';
    if (core) out.push(hashStyle ? `#${core}` : `[[${core}]]`);
  }
  return out.join(' ');
}

/** A highlight's link as all three plugins make it: the page URL with `refurl` appended, unless the URL has a fragment. */
export function highlightLink(pageUrl: string, refurl: string): string {
  if (!pageUrl || !refurl) return '';
  const url = pageUrl.replace(/#+$/, '');
  return url.includes('#') ? url : url + refurl;
}

/** The Obsidian plugin's title clean-up for file names: an empty title is "No title". */
export function fileTitle(title: string): string {
  const clean = title.replace(/\s+/g, ' ').replace(/[~\\、/*"'<>%$#&;；:?？。，！!|]/g, '');
  return clean || 'No title';
}

/** The Obsidian plugin's file for a note: `<title>-<noteIdX>.md`. */
export const fileName = (entry: SeedPluginEntry) => `${fileTitle(entry.title)}-${entry.noteIdX}.md`;

/** How the note tool reads a note's id back from its file name, to archive or delete it. */
export function idFromFileName(name: string): string | null {
  return /-([a-z0-9_]+)\.md$/i.exec(name)?.[1] ?? null;
}

/**
 * A Logseq graph as the seed's Logseq plugin writes it: per note a block (found again by the
 * note's `noteid` property), under it a block per highlight — the page note first, as a
 * highlight without id. A highlight block is found again by its `wucairefid` property, one
 * without id by its content containing the text; a block found is never rewritten, one not
 * found is added.
 */
export class LogseqGraph {
  readonly notes = new Map<string, { title: string; blocks: { content: string; refid: string }[] }>();

  write(entries: SeedPluginEntry[]) {
    for (const entry of entries) {
      if (!entry.title) continue;
      const page = this.notes.get(entry.noteIdX) ?? { title: entry.title, blocks: [] };
      this.notes.set(entry.noteIdX, page);
      const items = [
        ...(entry.pageNote ? [{ note: entry.pageNote.trim(), refid: '' }] : []),
        ...entry.highlights,
      ];
      for (const item of items) {
        const content = item.note.replace(/#\s+/g, '#');
        const found = item.refid
          ? page.blocks.find((b) => b.refid === item.refid)
          : page.blocks.find((b) => b.content.includes(content));
        if (!found) page.blocks.push({ content, refid: item.refid });
      }
    }
  }
}
