import {
  zClipInput,
  zClipResult,
  zExportInput,
  zExportResult,
  zPageDetail,
  zPageIdInput,
  zPageList,
  zPageListInput,
  zPageSummary,
  zSavePageInput,
} from '../../src/schemas/notes.ts';
import { clipUrl, retryClip, savePageHtml } from '../domain/pages/clip.service.ts';
import { toPageDetail, toPageSummary } from '../domain/pages/page-view.ts';
import { exportPage, getPage, listPages } from '../domain/pages/pages.service.ts';
import { protectedProcedure, router } from './init.ts';

export const notesRouter = router({
  /** Save a URL; the worker fetches and parses it. Saving it again returns the same page. */
  clip: protectedProcedure
    .input(zClipInput)
    .output(zClipResult)
    .mutation(async ({ ctx, input }) => {
      const { page, created, retried } = await clipUrl(ctx.em, ctx.queues, ctx.user, input.url);
      return { page: toPageSummary(page), created, retried };
    }),

  /** Save a page with its HTML (extension, bookmarklet): parsed the same way, never fetched. */
  savePage: protectedProcedure
    .input(zSavePageInput)
    .output(zClipResult)
    .mutation(async ({ ctx, input }) => {
      const { page, created } = await savePageHtml(ctx.em, ctx.queues, ctx.user, input);
      return { page: toPageSummary(page), created, retried: !created };
    }),

  retryClip: protectedProcedure
    .input(zPageIdInput)
    .output(zPageSummary)
    .mutation(async ({ ctx, input }) =>
      toPageSummary(await retryClip(ctx.em, ctx.queues, ctx.user, input.id)),
    ),

  page: protectedProcedure
    .input(zPageIdInput)
    .output(zPageDetail)
    .query(async ({ ctx, input }) => {
      const { page, content } = await getPage(ctx.em, ctx.user, input.id);
      return toPageDetail(page, content);
    }),

  pages: protectedProcedure
    .input(zPageListInput)
    .output(zPageList)
    .query(async ({ ctx, input }) => {
      const { items, nextCursor } = await listPages(ctx.em, ctx.user, input);
      return { items: items.map(toPageSummary), nextCursor };
    }),

  export: protectedProcedure
    .input(zExportInput)
    .output(zExportResult)
    .query(({ ctx, input }) => exportPage(ctx.em, ctx.user, input)),
});
