import { z } from 'zod';
import { ColourSlot, CoreType, HighlightSort, HighlightStyle } from '../enums.ts';
import { zHighlightId } from '../rules/id.ts';
import { isWebUrl, NOTE_URL_MAX } from '../rules/note-url.ts';
import { zText } from '../rules/text.ts';
import { zNoteId } from './notes.ts';
import { zTag, zTags } from './tags.ts';

export const HIGHLIGHT_TEXT_MAX = 20_000;
export const ANNOTATION_MAX = 20_000;

const zSlot = z.number().int().min(ColourSlot.c1).max(ColourSlot.c6);
const zStyle = z.number().int().min(HighlightStyle.background).max(HighlightStyle.bold);

export const zSelectors = z.object({
  quote: z.object({
    type: z.literal('TextQuoteSelector'),
    exact: zText().min(1).max(HIGHLIGHT_TEXT_MAX),
    prefix: zText().max(256),
    suffix: zText().max(256),
  }),
  position: z
    .object({
      type: z.literal('TextPositionSelector'),
      start: z.number().int().min(0),
      end: z.number().int().min(0),
    })
    .refine((p) => p.end > p.start, 'errors.invalidInput'),
});

export type Selectors = z.infer<typeof zSelectors>;

const zHttpUrl = zText().max(NOTE_URL_MAX, 'errors.tooLong').refine(isWebUrl, 'errors.urlInvalid');

/** Markdown with $…$ / $$…$$ math; the server refuses formulas KaTeX cannot typeset. */
export const zAnnotation = zText().max(ANNOTATION_MAX, 'errors.tooLong');

/** A new highlight's fields, before the rules that tie them together (highlightRules). */
export const zCreateHighlightFields = z.object({
  id: zHighlightId,
  noteId: zNoteId,
  coreType: z.union([z.literal(CoreType.highlight), z.literal(CoreType.image), z.literal(CoreType.textNote)]),
  text: zText().max(HIGHLIGHT_TEXT_MAX, 'errors.tooLong').default(''),
  slotId: zSlot.default(ColourSlot.c1),
  style: zStyle.default(HighlightStyle.background),
  imageUrl: zHttpUrl.nullish(),
  selectors: zSelectors.nullish(),
  annotation: zAnnotation.nullish(),
  tags: zTags.default([]),
});

/**
 * What each kind needs: a text highlight its place (selectors, or `quote` where the caller may
 * send the text alone), an image its address, a note on the page some text.
 */
export function highlightRules<
  T extends z.ZodType<{
    coreType: number;
    selectors?: unknown;
    imageUrl?: unknown;
    text: string;
    quote?: string | undefined;
  }>,
>(schema: T) {
  return schema
    .refine((v) => v.coreType !== CoreType.highlight || v.selectors || v.quote, {
      message: 'errors.invalidInput',
      path: ['selectors'],
    })
    .refine((v) => v.coreType !== CoreType.image || v.imageUrl, {
      message: 'errors.invalidInput',
      path: ['imageUrl'],
    })
    .refine((v) => v.coreType !== CoreType.textNote || v.text.trim(), {
      message: 'errors.cannotBeEmpty',
      path: ['text'],
    });
}

export const zCreateHighlightInput = highlightRules(zCreateHighlightFields);
export type CreateHighlightInput = z.infer<typeof zCreateHighlightInput>;

export const zUpdateHighlightInput = z.object({
  id: zHighlightId,
  slotId: zSlot.optional(),
  style: zStyle.optional(),
  text: zText().max(HIGHLIGHT_TEXT_MAX, 'errors.tooLong').optional(),
  annotation: zAnnotation.nullable().optional(),
  tags: zTags.optional(),
});
export type UpdateHighlightInput = z.infer<typeof zUpdateHighlightInput>;

export const zHighlightIdInput = z.object({ id: zHighlightId });

/** Puts a highlight (typically one that could not be placed) on newly selected text. */
export const zReattachHighlightInput = z.object({ id: zHighlightId, selectors: zSelectors });
export type ReattachHighlightInput = z.infer<typeof zReattachHighlightInput>;

/**
 * A highlight as the reader and the lists show it. Its times are epoch milliseconds: no screen
 * reads them, and a Date would cost superjson a walk and an annotation per field on the wire.
 */
export const zHighlight = z.object({
  id: z.string(),
  noteId: z.string().nullable(),
  coreType: z.number().int(),
  text: z.string(),
  slotId: z.number().int(),
  style: z.number().int(),
  imageUrl: z.string().nullable(),
  selectors: zSelectors.nullable(),
  positionStart: z.number().int().nullable(),
  detached: z.boolean(),
  annotation: z.object({ id: z.string(), message: z.string(), createdAt: z.number().int() }).nullable(),
  tags: z.array(z.string()),
  hasLink: z.boolean(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Highlight = z.infer<typeof zHighlight>;

/** A highlight in the list across notes carries its note's title and link. */
export const zHighlightListItem = zHighlight.extend({
  note: z
    .object({
      id: z.string(),
      title: z.string(),
      url: z.string(),
      flow: z.number().int(),
      trashed: z.boolean(),
    })
    .nullable(),
});

export type HighlightListItem = z.infer<typeof zHighlightListItem>;

export const zHighlightListInput = z.object({
  noteId: zNoteId.optional(),
  /** Keyword search over highlight text and annotations (CJK-exact, see src/search/tokens.ts). */
  q: zText().max(200).optional(),
  slotId: zSlot.optional(),
  tag: zTag.optional(),
  sort: z.enum(Object.values(HighlightSort)).default(HighlightSort.newestFirst),
  limit: z.number().int().min(1).max(100).default(50),
  /** In article order it names the note and the place: a longer cursor than newest first's. */
  cursor: zText().max(400).nullish(),
});
export const zHighlightList = z.object({
  items: z.array(zHighlightListItem),
  nextCursor: z.string().nullable(),
});

export const zExportHighlightsInput = z.object({ noteId: zNoteId, format: z.enum(['markdown', 'text']) });

/** Where a highlight lives, for the `?nx=` deep link: its note, or its day for a daily note's text. */
export const zHighlightLocation = z.object({
  noteId: z.string().nullable(),
  dailyDate: z.string().nullable(),
});
