import { z } from 'zod';
import {
  zCreateHighlightInput,
  zExportHighlightsInput,
  zHighlight,
  zHighlightIdInput,
  zHighlightList,
  zHighlightListInput,
  zHighlightLocation,
  zReattachHighlightInput,
  zUpdateHighlightInput,
} from '../../src/schemas/highlights.ts';
import { zExportResult, zNoteIdInput } from '../../src/schemas/notes.ts';
import { exportHighlights } from '../domain/highlights/export-highlights.ts';
import {
  createHighlight,
  deleteHighlight,
  listHighlights,
  locateHighlight,
  noteHighlights,
  reattachHighlight,
  updateHighlight,
} from '../domain/highlights/highlights.service.ts';
import { protectedProcedure, router, syncOutput } from './init.ts';

export const highlightsRouter = router({
  create: protectedProcedure
    .input(zCreateHighlightInput)
    .output(zHighlight)
    .mutation(({ ctx, input }) => createHighlight(ctx, ctx.user, input)),

  update: protectedProcedure
    .input(zUpdateHighlightInput)
    .output(zHighlight)
    .mutation(({ ctx, input }) => updateHighlight(ctx, ctx.user, input)),

  reattach: protectedProcedure
    .input(zReattachHighlightInput)
    .output(zHighlight)
    .mutation(({ ctx, input }) => reattachHighlight(ctx, ctx.user, input)),

  delete: protectedProcedure
    .input(zHighlightIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteHighlight(ctx, ctx.user, input.id)),

  locate: protectedProcedure
    .input(zHighlightIdInput)
    .output(zHighlightLocation)
    .query(({ ctx, input }) => locateHighlight(ctx.em, ctx.user, input.id)),

  byNote: protectedProcedure
    .input(zNoteIdInput)
    .output(syncOutput(z.array(zHighlight)))
    .query(({ ctx, input }) => noteHighlights(ctx.em, ctx.user, input.id)),

  list: protectedProcedure
    .input(zHighlightListInput)
    .output(syncOutput(zHighlightList))
    .query(({ ctx, input }) => listHighlights(ctx.em, ctx.user, input)),

  export: protectedProcedure
    .input(zExportHighlightsInput)
    .output(zExportResult)
    .query(({ ctx, input }) => exportHighlights(ctx.em, ctx.user, input)),
});
