import { z } from 'zod';
import { PAGE_URL_MAX } from '../rules/page-url.ts';
import { zText } from '../rules/text.ts';

export const SAVE_PAGE_HTML_MAX = 5 * 1024 * 1024;

export const zPageId = zText()
  .max(32, 'errors.notFound')
  .regex(/^[0-9A-Za-z-]{8,32}$/, 'errors.notFound');

export const zClipInput = z.object({
  url: zText().trim().min(1, 'errors.cannotBeEmpty').max(PAGE_URL_MAX, 'errors.urlInvalid'),
});
export type ClipInput = z.infer<typeof zClipInput>;

/** The extension or bookmarklet sends the page it shows; the server parses it, never fetches. */
export const zSavePageInput = zClipInput.extend({
  html: zText().min(1, 'errors.cannotBeEmpty').max(SAVE_PAGE_HTML_MAX, 'errors.payloadTooLarge'),
});
export type SavePageInput = z.infer<typeof zSavePageInput>;

export const zPageSummary = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string(),
  siteName: z.string().nullable(),
  author: z.string().nullable(),
  publishedAt: z.date().nullable(),
  leadImageUrl: z.string().nullable(),
  excerpt: z.string(),
  lang: z.string().nullable(),
  wordCount: z.number().int(),
  flow: z.number().int(),
  tags: z.array(z.string()),
  clipStatus: z.number().int(),
  clipError: z.string().nullable(),
  highlightCount: z.number().int(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type PageSummary = z.infer<typeof zPageSummary>;

export const zClipResult = z.object({
  page: zPageSummary,
  created: z.boolean(),
  /** Saved before and queued again: a failed clip is retried, sent HTML is parsed anew. */
  retried: z.boolean(),
});

export const zPageDetail = zPageSummary.extend({ contentHtml: z.string(), text: z.string() });
export type PageDetail = z.infer<typeof zPageDetail>;

export const zPageIdInput = z.object({ id: zPageId });

export const zPageListInput = z.object({
  limit: z.number().int().min(1).max(100).default(50),
  /** Opaque cursor from the previous page's `nextCursor`. */
  cursor: zText().max(200).nullish(),
});
export const zPageList = z.object({ items: z.array(zPageSummary), nextCursor: z.string().nullable() });

export const zExportInput = z.object({ id: zPageId, format: z.enum(['text', 'markdown']) });
export const zExportResult = z.object({ filename: z.string(), mimeType: z.string(), content: z.string() });
