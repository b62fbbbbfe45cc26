import { createHash } from 'node:crypto';
import {
  type ExportHighlight,
  ExportHighlightType,
  type ExportRecord,
  type IntegrationSettings,
  type PullApp,
  type TagStyle,
  WriteStyle,
} from '../../src/schemas/sync.ts';
import { textFragment } from '../../src/text/text-fragment.ts';
import { formatTag } from '../domain/sync/templates/variables.ts';
import { seedNoteIdX } from './seed-note-id.ts';

// The seed product's wire shapes (docs/SEED-PROTOCOL.md): a note with its highlights, and the
// per-tool export settings its plugins render with. What each field must look like is what the
// seed's plugins parse; test/api/sync-seed.test.ts holds them to it.

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

/**
 * `refurl`: the plugins append it to the page's URL (`url + refurl`, unless the URL has a `#`
 * already), so it is a fragment: a text fragment that scrolls the page to the passage. A passage
 * that is not the page's own text (an image, LaTeX source, a note) has none.
 */
function passageFragment(record: ExportRecord, h: ExportHighlight): string {
  return record.url && h.type === ExportHighlightType.text ? textFragment(h.text) : '';
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
    refurl: passageFragment(record, h),
    url: record.url,
    annotags: h.tags,
    createat: h.createdAt,
    updateat: h.updatedAt,
    highlighttype: h.type,
  };
}

/**
 * A daily note's text for Logseq: one entry per paragraph. Logseq's plugin adds a page note as
 * a block it finds again by its content, and never rewrites a block it found, so a daily text
 * sent whole came back as a second copy after each edit. Paragraphs keyed by their content (the
 * plugin finds a block by its `refid` first) leave every unchanged paragraph where it is and add
 * only what is new; a paragraph edited in Margin arrives as a new block beside the old one.
 */
function dailyParagraphs(record: ExportRecord): SeedHighlightEntry[] {
  return record.content
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((text) => ({
      note: text,
      imageUrl: '',
      annonation: '',
      color: '',
      slotId: 0,
      slotid: 0,
      refid: `daily-${createHash('sha256').update(text).digest('hex').slice(0, 20)}`,
      refurl: '',
      url: '',
      annotags: [],
      createat: record.createdAt,
      updateat: record.updatedAt,
      highlighttype: ExportHighlightType.textNote,
    }));
}

/** What a note entry depends on besides the record: the tool it goes to and its tag style. */
export interface EntryStyle {
  app: PullApp;
  tagStyle: TagStyle;
}

/**
 * A record as the seed's NoteEntry. Margin's reader is both the product link and the clip's
 * reading link; there is no separate full-text file (`sou`). Tags go out as the plugins keep
 * them: with the user's tag style applied (`#tag` or `[[tag]]`; they drop a bare name). A daily
 * note's own text travels as its page note, but to Logseq as paragraphs (see dailyParagraphs).
 */
export function noteEntry(record: ExportRecord, style: EntryStyle): SeedNoteEntry {
  const noteIdX = seedNoteIdX(record.id);
  const dailyToLogseq = record.kind === 'daily' && style.app === 'logseq';
  const highlights = record.highlights.map((h) => highlightEntry(record, h));
  return {
    noteIdX,
    noteId: noteIdX,
    title: record.title,
    url: record.url,
    wucaiurl: record.readerUrl,
    readurl: record.readerUrl,
    citekey: '',
    author: record.author ?? '',
    pageNote: dailyToLogseq ? '' : record.content,
    sou: '',
    noteType: record.kind === 'daily' ? NOTE_TYPE.daily : NOTE_TYPE.page,
    createAt: record.createdAt,
    updateAt: record.updatedAt,
    publishat: record.publishedAt ?? 0,
    pageScore: 0,
    isStar: false,
    tags: record.tags.map((name) => formatTag(name, style.tagStyle)),
    notetags: record.tags.join(','),
    highlights: dailyToLogseq ? [...dailyParagraphs(record), ...highlights] : highlights,
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
