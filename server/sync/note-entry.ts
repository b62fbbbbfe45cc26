import {
  type ExportHighlight,
  type ExportRecord,
  type IntegrationSettings,
  type PullApp,
  WriteStyle,
} from '../../src/schemas/sync.ts';

// The seed product's wire shapes (/work/shared/protocols/sync.md, section 1): a note with its
// highlights, and the per-tool export settings its plugins render with.

/** The seed's note types: 3 is a daily note; anything else is read as a page. */
const NOTE_TYPE = { page: 1, daily: 3 } as const;

interface SeedHighlightEntry {
  note: string;
  imageUrl: string;
  /** Sic: the seed's spelling of "annotation". */
  annonation: string;
  color: string;
  slotId: number;
  /** The same slot: the seed's Obsidian and SiYuan plugins read it lower-case, Logseq camel-case. */
  slotid: number;
  refid: string;
  refurl: string;
  url: string;
  annotags: string[];
  createat: number;
  updateat: number;
  highlighttype: number;
}

interface SeedNoteEntry {
  noteIdX: string;
  /** The seed's numeric id has no counterpart: Margin's ids are strings, so both carry the id. */
  noteId: string;
  title: string;
  url: string;
  wucaiurl: string;
  readurl: string;
  citekey: string;
  author: string;
  pageNote: string;
  sou: string;
  noteType: number;
  createAt: number;
  updateAt: number;
  publishat: number;
  pageScore: number;
  /** Logseq's plugin reads the star as a flag; Margin has no stars (pageScore 0). */
  isStar: boolean;
  tags: string[];
  notetags: string;
  highlights: SeedHighlightEntry[];
}

function highlightEntry(record: ExportRecord, h: ExportHighlight): SeedHighlightEntry {
  return {
    note: h.text,
    imageUrl: h.imageUrl ?? '',
    annonation: h.annotation ?? '',
    color: h.color,
    slotId: h.slot,
    slotid: h.slot,
    refid: h.id,
    refurl: h.link,
    url: record.url,
    annotags: h.tags,
    createat: h.createdAt,
    updateat: h.updatedAt,
    highlighttype: h.type,
  };
}

/**
 * A record as the seed's NoteEntry. Margin's reader is both the product link and the clip's
 * reading link; there is no separate full-text file (`sou`), and a daily note's own text travels
 * as its page note.
 */
export function noteEntry(record: ExportRecord): SeedNoteEntry {
  return {
    noteIdX: record.id,
    noteId: record.id,
    title: record.title,
    url: record.url,
    wucaiurl: record.readerUrl,
    readurl: record.readerUrl,
    citekey: '',
    author: record.author ?? '',
    pageNote: record.content,
    sou: '',
    noteType: record.kind === 'daily' ? NOTE_TYPE.daily : NOTE_TYPE.page,
    createAt: record.createdAt,
    updateAt: record.updatedAt,
    publishat: record.publishedAt ?? 0,
    pageScore: 0,
    isStar: false,
    tags: record.tags,
    notetags: record.tags.join(','),
    highlights: record.highlights.map((h) => highlightEntry(record, h)),
  };
}

/** Obsidian's page mirror (the clip as Markdown in the note): 2 is off; Margin sends no `sou`. */
const PAGE_MIRROR_OFF = 2;
/** The seed's highlight and annotation styles: its plugins' defaults. */
const DEFAULT_STYLE = 1;

/**
 * The `exportConfig` of `init`, per tool. A template goes out only when the user wrote their
 * own: an empty one makes the seed's plugin use its own Nunjucks default, which is what Margin's
 * defaults reproduce. The query filter is Margin's to apply (the integration's filter narrows
 * the export on the server), so the plugins get none. SiYuan always overwrites.
 */
export function exportConfig(app: PullApp, settings: IntegrationSettings): Record<string, string | number> {
  const title = settings.templates.title ?? '';
  const note = settings.templates.note ?? '';
  switch (app) {
    case 'obsidian':
      return {
        titleTemplate: title,
        obTemplate: note,
        writeStyle: settings.writeStyle,
        tagStyle: settings.tagStyle,
        highlightStyle: DEFAULT_STYLE,
        annotationStyle: DEFAULT_STYLE,
        pageMirrorStyle: PAGE_MIRROR_OFF,
        truncateTile255: 0,
        obQuery: '',
      };
    case 'siyuan':
      return { sytitlet: title, sytpl: note, sywrites: WriteStyle.overwrite, syquery: '' };
    case 'logseq':
      // Logseq's plugin writes an outline from its own small Mustache templates (title,
      // attributes, highlight, annotation); only the title has a counterpart in Margin's settings.
      return { logseqSplitTemplate: '', lsqtt: title, lsqat: '', lsqht: '', lsqant: '', logseqQuery: '' };
  }
}
