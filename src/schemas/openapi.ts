import { z } from 'zod';
import { ClipStatus, CoreType, Flow } from '../enums.ts';
import { zHighlightId } from '../rules/id.ts';
import { zText } from '../rules/text.ts';
import { DAILY_TEXT_MAX, zDailyAppendInput, zDay } from './daily.ts';
import { zFolderId } from './folders.ts';
import {
  highlightRules,
  zAnnotation,
  zCreateHighlightFields,
  zSelectors,
  zUpdateHighlightInput,
} from './highlights.ts';
import { NAV_VIEWS, zClipInput, zNoteId, zReadingProgress, zSetFlowInput } from './notes.ts';
import { zTag, zTags } from './tags.ts';

// The Open API's shapes (/openapi/v1): plain JSON, times in epoch seconds as `createAt` and
// `updateAt`. The document is generated from these, and requests are parsed with them.

const zEpochSeconds = z.number().int().meta({ description: 'Epoch seconds.' });
const zCursor = zText().max(300).meta({ description: 'The `next_cursor` of the previous page.' });
const zLimit = z.coerce.number().int().min(1).max(100).default(50);

/** A page of a list: pass `next_cursor` back as `cursor` until it is null. */
export const zApiPage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next_cursor: z.string().nullable() });

export const zApiNote = z
  .object({
    id: z.string(),
    url: z.string(),
    title: z.string(),
    siteName: z.string().nullable(),
    leadImageUrl: z.string().nullable(),
    excerpt: z.string(),
    flow: z
      .number()
      .int()
      .meta({
        description: `State: ${Flow.inbox} inbox, ${Flow.later} read later, ${Flow.shortlist} starred, ${Flow.archive} archived.`,
      }),
    tags: z.array(z.string()),
    folderId: z.string().nullable(),
    clipStatus: z
      .number()
      .int()
      .meta({
        description: `Clipping: ${ClipStatus.queued} queued, ${ClipStatus.processing} running, ${ClipStatus.done} done, ${ClipStatus.failed} failed.`,
      }),
    clipError: z.string().nullable(),
    highlightCount: z.number().int(),
    createAt: zEpochSeconds,
    updateAt: zEpochSeconds,
  })
  .meta({ id: 'Note' });
export type ApiNote = z.infer<typeof zApiNote>;

export const zApiHighlight = z
  .object({
    id: z.string(),
    noteId: z.string().nullable(),
    coreType: z
      .number()
      .int()
      .meta({
        description: `${CoreType.highlight} text highlight, ${CoreType.image} image, ${CoreType.textNote} a note on the page.`,
      }),
    text: z.string(),
    slotId: z.number().int().meta({ description: 'Colour slot, 1–6.' }),
    style: z.number().int(),
    imageUrl: z.string().nullable(),
    selectors: zSelectors.nullable(),
    positionStart: z.number().int().nullable(),
    detached: z.boolean().meta({ description: 'Its text is no longer found in the article.' }),
    annotation: z.string().nullable(),
    tags: z.array(z.string()),
    createAt: zEpochSeconds,
    updateAt: zEpochSeconds,
  })
  .meta({ id: 'Highlight' });
export type ApiHighlight = z.infer<typeof zApiHighlight>;

export const zApiNoteDetail = zApiNote
  .extend({
    author: z.string().nullable(),
    publishedAt: zEpochSeconds.nullable(),
    lang: z.string().nullable(),
    wordCount: z.number().int(),
    contentHtml: z.string().meta({
      description:
        'The sanitised article as the reader shows it: each image is Margin’s stored copy (under /files/images, for the signed-in owner) or a placeholder until it is stored.',
    }),
    text: z.string().meta({ description: "The article's text, which selectors' positions count in." }),
    readingProgress: zReadingProgress.nullable().meta({
      description:
        'Where the reader left the note: `offset` in `text` of the first line on screen, `fraction` read (0–1); null if never opened.',
    }),
    highlights: z.array(zApiHighlight),
  })
  .meta({ id: 'NoteDetail' });

export const zApiFolder = z
  .object({
    id: z.string(),
    name: z.string(),
    parentId: z.string().nullable(),
    noteCount: z.number().int(),
    createAt: zEpochSeconds,
  })
  .meta({ id: 'Folder' });

export const zApiTag = z
  .object({ tag: z.string(), notes: z.number().int(), highlights: z.number().int() })
  .meta({ id: 'Tag' });

export const zApiDailyNote = z
  .object({
    id: z.string(),
    date: z.string().meta({ description: 'YYYY-MM-DD, in the account’s time zone.' }),
    text: z.string().meta({ description: 'Markdown.' }),
    version: z.number().int(),
    updateAt: zEpochSeconds.nullable(),
  })
  .meta({ id: 'DailyNote' });
export const zApiDailyDay = zApiDailyNote
  .extend({ entries: z.array(zApiDailyNote).meta({ description: 'The day’s extra notes.' }) })
  .meta({ id: 'DailyDay' });

export const zApiExport = z
  .object({ filename: z.string(), mimeType: z.string(), content: z.string() })
  .meta({ id: 'Export' });

// --- requests --------------------------------------------------------------------------------

export const zNoteIdParams = z.object({ id: zNoteId });
export const zHighlightIdParams = z.object({ id: zHighlightId });
export const zFolderIdParams = z.object({ id: zFolderId });
export const zDayParams = z.object({
  day: z.union([z.literal('today'), zDay]).meta({ description: '`today` or YYYY-MM-DD.' }),
});

export const zApiNoteListQuery = z.object({
  nav: z.enum(NAV_VIEWS).default('all'),
  tag: zTag.optional(),
  folderId: zFolderId.optional(),
  q: zText().max(200).optional().meta({ description: 'Search titles, text, highlights and annotations.' }),
  limit: zLimit,
  cursor: zCursor.optional(),
});

export const zApiCreateNote = zClipInput
  .extend({
    html: zText()
      .min(1, 'errors.cannotBeEmpty')
      .max(5 * 1024 * 1024, 'errors.payloadTooLarge')
      .optional()
      .meta({ description: 'The page as the browser shows it: parsed, never fetched.' }),
  })
  .meta({ id: 'CreateNote' });

export const zApiUpdateNote = z
  .object({
    flow: zSetFlowInput.shape.flow.optional(),
    tags: zTags.optional().meta({ description: 'The note’s tags from now on.' }),
    folderId: zFolderId.nullable().optional().meta({ description: 'null takes it out of its folder.' }),
  })
  .meta({ id: 'UpdateNote' });

export const zApiExportQuery = z.object({
  format: z.enum(['text', 'article', 'highlights', 'markdown']).default('markdown'),
});

export const zApiHighlightListQuery = z.object({
  noteId: zNoteId.optional(),
  q: zText().max(200).optional(),
  slotId: z.coerce.number().int().min(1).max(6).optional(),
  tag: zTag.optional(),
  limit: zLimit,
  cursor: zCursor.optional(),
});

export const zApiCreateHighlight = highlightRules(
  zCreateHighlightFields.extend({
    id: zHighlightId.optional().meta({
      description:
        'Your own id (digits, letters, hyphen) makes a retried create safe; one is made otherwise.',
    }),
    quote: zText().min(1).max(20_000).optional().meta({
      description: 'Instead of selectors: the exact text, found in the note (its first occurrence).',
    }),
  }),
).meta({ id: 'CreateHighlight' });

export const zApiUpdateHighlight = zUpdateHighlightInput.omit({ id: true }).extend({
  annotation: zAnnotation.nullable().optional(),
});

export const zApiDailyCreate = z
  .object({ date: zDay.optional(), text: zText().max(DAILY_TEXT_MAX, 'errors.tooLong') })
  .meta({ id: 'DailyWrite' });

export const zApiDailyAppend = z.union([zDailyAppendInput, z.object({ highlightId: zHighlightId })]).meta({
  id: 'DailyAppend',
  description:
    '`text` to add at the end, or a `highlightId` whose passage is quoted there (the highlight stays on its note).',
});
