import { z } from 'zod';
import { highlightsMarkdown, highlightsText } from '../../src/rules/highlight-format.ts';
import {
  zCreateHighlightInput,
  zExportHighlightsInput,
  zHighlight,
  zHighlightIdInput,
  zHighlightList,
  zHighlightListInput,
  zHighlightLocation,
  zUpdateHighlightInput,
} from '../../src/schemas/highlights.ts';
import { zExportResult, zPageIdInput } from '../../src/schemas/notes.ts';
import { toHighlight } from '../domain/highlights/highlight-view.ts';
import {
  createHighlight,
  deleteHighlight,
  listHighlights,
  locateHighlight,
  pageHighlights,
  updateHighlight,
} from '../domain/highlights/highlights.service.ts';
import { getPage, safeFilename } from '../domain/pages/pages.service.ts';
import { protectedProcedure, router } from './init.ts';

export const highlightsRouter = router({
  create: protectedProcedure
    .input(zCreateHighlightInput)
    .output(zHighlight)
    .mutation(async ({ ctx, input }) => toHighlight(await createHighlight(ctx.em, ctx.user, input))),

  update: protectedProcedure
    .input(zUpdateHighlightInput)
    .output(zHighlight)
    .mutation(async ({ ctx, input }) => toHighlight(await updateHighlight(ctx.em, ctx.user, input))),

  delete: protectedProcedure
    .input(zHighlightIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteHighlight(ctx.em, ctx.user, input.id)),

  locate: protectedProcedure
    .input(zHighlightIdInput)
    .output(zHighlightLocation)
    .query(({ ctx, input }) => locateHighlight(ctx.em, ctx.user, input.id)),

  byPage: protectedProcedure
    .input(zPageIdInput)
    .output(z.array(zHighlight))
    .query(async ({ ctx, input }) => (await pageHighlights(ctx.em, ctx.user, input.id)).map(toHighlight)),

  list: protectedProcedure
    .input(zHighlightListInput)
    .output(zHighlightList)
    .query(({ ctx, input }) => listHighlights(ctx.em, ctx.user, input)),

  export: protectedProcedure
    .input(zExportHighlightsInput)
    .output(zExportResult)
    .query(async ({ ctx, input }) => {
      const { page } = await getPage(ctx.em, ctx.user, input.pageId);
      const highlights = (await pageHighlights(ctx.em, ctx.user, input.pageId)).map(toHighlight);
      const markdown = input.format === 'markdown';
      return {
        filename: safeFilename(`${page.title} - highlights`, markdown ? 'md' : 'txt'),
        mimeType: markdown ? 'text/markdown;charset=utf-8' : 'text/plain;charset=utf-8',
        content: markdown ? highlightsMarkdown(page, highlights) : highlightsText(page, highlights),
      };
    }),
});
