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
import { zExportResult, zNoteIdInput } from '../../src/schemas/notes.ts';
import { toHighlightView } from '../domain/highlights/highlight-view.ts';
import {
  createHighlight,
  deleteHighlight,
  listHighlights,
  locateHighlight,
  noteHighlights,
  updateHighlight,
} from '../domain/highlights/highlights.service.ts';
import { getNote, safeFilename } from '../domain/notes/notes.service.ts';
import { protectedProcedure, router } from './init.ts';

export const highlightsRouter = router({
  create: protectedProcedure
    .input(zCreateHighlightInput)
    .output(zHighlight)
    .mutation(async ({ ctx, input }) => toHighlightView(await createHighlight(ctx.em, ctx.user, input))),

  update: protectedProcedure
    .input(zUpdateHighlightInput)
    .output(zHighlight)
    .mutation(async ({ ctx, input }) => toHighlightView(await updateHighlight(ctx.em, ctx.user, input))),

  delete: protectedProcedure
    .input(zHighlightIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteHighlight(ctx.em, ctx.user, input.id)),

  locate: protectedProcedure
    .input(zHighlightIdInput)
    .output(zHighlightLocation)
    .query(({ ctx, input }) => locateHighlight(ctx.em, ctx.user, input.id)),

  byNote: protectedProcedure
    .input(zNoteIdInput)
    .output(z.array(zHighlight))
    .query(async ({ ctx, input }) => (await noteHighlights(ctx.em, ctx.user, input.id)).map(toHighlightView)),

  list: protectedProcedure
    .input(zHighlightListInput)
    .output(zHighlightList)
    .query(({ ctx, input }) => listHighlights(ctx.em, ctx.user, input)),

  export: protectedProcedure
    .input(zExportHighlightsInput)
    .output(zExportResult)
    .query(async ({ ctx, input }) => {
      const { note } = await getNote(ctx.em, ctx.user, input.noteId);
      const highlights = (await noteHighlights(ctx.em, ctx.user, input.noteId)).map(toHighlightView);
      const markdown = input.format === 'markdown';
      return {
        filename: safeFilename(`${note.title} - highlights`, markdown ? 'md' : 'txt'),
        mimeType: markdown ? 'text/markdown;charset=utf-8' : 'text/plain;charset=utf-8',
        content: markdown ? highlightsMarkdown(note, highlights) : highlightsText(note, highlights),
      };
    }),
});
