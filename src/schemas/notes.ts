import { z } from 'zod';
import { Flow, SortOrder } from '../enums.ts';
import { zStoredId } from '../rules/id.ts';
import { NOTE_URL_MAX } from '../rules/note-url.ts';
import { zText } from '../rules/text.ts';
import { zFolderId } from './folders.ts';
import { zTag } from './tags.ts';

export const CLIP_HTML_MAX = 5 * 1024 * 1024;

export const zNoteId = zStoredId;

export const zClipInput = z.object({
  url: zText().trim().min(1, 'errors.cannotBeEmpty').max(NOTE_URL_MAX, 'errors.urlInvalid'),
});

/** The extension or bookmarklet sends the page it shows; the server parses it, never fetches. */
export const zClipHtmlInput = zClipInput.extend({
  html: zText().min(1, 'errors.cannotBeEmpty').max(CLIP_HTML_MAX, 'errors.payloadTooLarge'),
});

/**
 * A note as a list row shows it, and as the list cache keeps it: flat, only the fields a row
 * reads, its saving time in epoch milliseconds (a Date would cost a superjson annotation per
 * row on the wire, and the row only formats it).
 */
export const zNoteSummary = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string(),
  siteName: z.string().nullable(),
  leadImageUrl: z.string().nullable(),
  /** The lead image as Margin stored it (a `/files/…` address on Margin), once stored. */
  image: z.string().nullable(),
  excerpt: z.string(),
  flow: z.number().int(),
  tags: z.array(z.string()),
  clipStatus: z.number().int(),
  clipError: z.string().nullable(),
  highlightCount: z.number().int(),
  folderId: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type NoteSummary = z.infer<typeof zNoteSummary>;

export const zClipResult = z.object({
  note: zNoteSummary,
  created: z.boolean(),
  /** Saved before and queued again: a failed clip is retried, sent HTML is parsed anew. */
  retried: z.boolean(),
});

/** The largest offset a PostgreSQL integer holds. */
const INT32_MAX = 2_147_483_647;

/**
 * Where the reader left a note: `offset` is the position, in the note's plain text (`text`), of
 * the first line on screen, which another device with another screen width can scroll back to;
 * `fraction` is how much of the note had been read, 0–1, for display.
 */
export const zReadingProgress = z.object({
  offset: z.number().int().min(0).max(INT32_MAX),
  fraction: z.number().min(0).max(1),
});
export type ReadingProgress = z.infer<typeof zReadingProgress>;

export const zSaveProgressInput = zReadingProgress.extend({ id: zNoteId });
export type SaveProgressInput = z.infer<typeof zSaveProgressInput>;

/** A note as the reader shows it: the row's fields, the byline, the article and where it was left. */
export const zNoteDetail = zNoteSummary.extend({
  author: z.string().nullable(),
  publishedAt: z.date().nullable(),
  lang: z.string().nullable(),
  wordCount: z.number().int(),
  contentHtml: z.string(),
  text: z.string(),
  readingProgress: zReadingProgress.nullable(),
  /** Some of the article's images are still being stored (the reader asks again until they are). */
  imagesPending: z.boolean(),
});
export type NoteDetail = z.infer<typeof zNoteDetail>;

export const zNoteIdInput = z.object({ id: zNoteId });

export const zExportInput = z.object({ id: zNoteId, format: z.enum(['text', 'markdown']) });
export const zExportResult = z.object({ filename: z.string(), mimeType: z.string(), content: z.string() });

/** Left-navigation entries that filter the list by state. */
export const NAV_VIEWS = ['all', 'later', 'star', 'archive', 'unarchive', 'trash', '24h', 'notag'] as const;
export type NavView = (typeof NAV_VIEWS)[number];

export const BULK_MAX = 500;

export const zNoteListInput = z.object({
  nav: z.enum(NAV_VIEWS).default('all'),
  tag: zTag.optional(),
  folderId: zFolderId.optional(),
  /** One search box: `#word` becomes a tag filter, the rest searches titles, text, highlights and annotations. */
  q: zText().max(200).optional(),
  sort: z.enum(Object.values(SortOrder) as [SortOrder, ...SortOrder[]]).default(SortOrder.newestFirst),
  limit: z.number().int().min(1).max(100).default(50),
  cursor: zText().max(300).nullish(),
});
export type NoteListInput = z.infer<typeof zNoteListInput>;

export const zNoteList = z.object({ items: z.array(zNoteSummary), nextCursor: z.string().nullable() });
export type NoteList = z.infer<typeof zNoteList>;

export const zNoteIdsInput = z.object({ ids: z.array(zNoteId).min(1).max(BULK_MAX) });
export const zSetFlowInput = zNoteIdsInput.extend({
  flow: z.union(
    [z.literal(Flow.inbox), z.literal(Flow.later), z.literal(Flow.shortlist), z.literal(Flow.archive)],
    {
      message: 'errors.invalidFlow',
    },
  ),
});
export const zTagNotesInput = zNoteIdsInput.extend({ tag: zTag });
export const zRenameTagInput = z.object({ from: zTag, to: zTag });
export const zMergeTagsInput = z.object({ from: z.array(zTag).min(1).max(50), to: zTag });
export const zChanged = z.object({ changed: z.number().int() });

export const zNavCounts = z.object({
  all: z.number().int(),
  later: z.number().int(),
  star: z.number().int(),
  archive: z.number().int(),
  unarchive: z.number().int(),
  trash: z.number().int(),
  '24h': z.number().int(),
  notag: z.number().int(),
});
export type NavCounts = z.infer<typeof zNavCounts>;

export const zTagCount = z.object({ tag: z.string(), notes: z.number().int(), highlights: z.number().int() });
export const zMoveToFolderInput = zNoteIdsInput.extend({ folderId: zFolderId.nullable() });
