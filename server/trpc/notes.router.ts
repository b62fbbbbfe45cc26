import { z } from 'zod';
import {
  zChanged,
  zClipHtmlInput,
  zClipInput,
  zClipResult,
  zExportInput,
  zExportResult,
  zMergeTagsInput,
  zMoveToFolderInput,
  zNavCounts,
  zNoteDetail,
  zNoteIdInput,
  zNoteIdsInput,
  zNoteList,
  zNoteListInput,
  zNoteSummary,
  zReadingProgress,
  zRenameTagInput,
  zSaveProgressInput,
  zSetFlowInput,
  zTagCount,
  zTagNotesInput,
} from '../../src/schemas/notes.ts';
import { clipHtml, clipUrl, retryClip } from '../domain/notes/clip.service.ts';
import { navCounts } from '../domain/notes/note-counts.ts';
import { noteDetail } from '../domain/notes/note-detail.ts';
import { listNotes } from '../domain/notes/note-list.ts';
import { tagCounts } from '../domain/notes/note-tags.ts';
import { toNoteSummary } from '../domain/notes/note-view.ts';
import { exportNote } from '../domain/notes/notes.service.ts';
import {
  addTag,
  deleteForever,
  mergeTags,
  moveToFolder,
  removeTag,
  renameTag,
  restoreNotes,
  setFlow,
  trashNotes,
} from '../domain/notes/organise.service.ts';
import { saveReadingProgress } from '../domain/notes/reading-progress.service.ts';
import { protectedProcedure, router, syncOutput } from './init.ts';

const changed = (n: number) => ({ changed: n });

export const notesRouter = router({
  /** Save a URL; the worker fetches and parses it. Saving it again returns the same note. */
  clip: protectedProcedure
    .input(zClipInput)
    .output(zClipResult)
    .mutation(async ({ ctx, input }) => {
      const { note, created, retried } = await clipUrl(ctx, ctx.user, input.url);
      return { note: toNoteSummary(note), created, retried };
    }),

  /** Save a page with its HTML (extension, bookmarklet): parsed the same way, never fetched. */
  clipHtml: protectedProcedure
    .input(zClipHtmlInput)
    .output(zClipResult)
    .mutation(async ({ ctx, input }) => {
      const { note, created } = await clipHtml(ctx, ctx.user, input);
      return { note: toNoteSummary(note), created, retried: !created };
    }),

  retryClip: protectedProcedure
    .input(zNoteIdInput)
    .output(zNoteSummary)
    .mutation(async ({ ctx, input }) => toNoteSummary(await retryClip(ctx, ctx.user, input.id))),

  get: protectedProcedure
    .input(zNoteIdInput)
    .output(zNoteDetail)
    .query(({ ctx, input }) => noteDetail(ctx.em, ctx.queues, ctx.user, input.id)),

  /** Where the reader left the note (no export change: reading is not editing). */
  saveProgress: protectedProcedure
    .input(zSaveProgressInput)
    .output(zReadingProgress)
    .mutation(({ ctx, input }) => saveReadingProgress(ctx.em, ctx.user, input)),

  export: protectedProcedure
    .input(zExportInput)
    .output(zExportResult)
    .query(({ ctx, input }) => exportNote(ctx.em, ctx.user, input, ctx.compute)),

  list: protectedProcedure
    .input(zNoteListInput)
    .output(syncOutput(zNoteList))
    .query(({ ctx, input }) => listNotes(ctx.em, ctx.user, input)),

  counts: protectedProcedure.output(zNavCounts).query(({ ctx }) => navCounts(ctx.em, ctx.user)),

  setFlow: protectedProcedure
    .input(zSetFlowInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await setFlow(ctx, ctx.user, input.ids, input.flow))),

  trash: protectedProcedure
    .input(zNoteIdsInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await trashNotes(ctx, ctx.user, input.ids))),

  restore: protectedProcedure
    .input(zNoteIdsInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await restoreNotes(ctx, ctx.user, input.ids))),

  deleteForever: protectedProcedure
    .input(zNoteIdsInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await deleteForever(ctx, ctx.user, input.ids))),

  moveToFolder: protectedProcedure
    .input(zMoveToFolderInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) =>
      changed(await moveToFolder(ctx, ctx.user, input.ids, input.folderId)),
    ),

  tags: protectedProcedure.output(z.array(zTagCount)).query(({ ctx }) => tagCounts(ctx.em, ctx.user)),

  addTag: protectedProcedure
    .input(zTagNotesInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await addTag(ctx, ctx.user, input.ids, input.tag))),

  removeTag: protectedProcedure
    .input(zTagNotesInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await removeTag(ctx, ctx.user, input.ids, input.tag))),

  renameTag: protectedProcedure
    .input(zRenameTagInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await renameTag(ctx, ctx.user, input.from, input.to))),

  mergeTags: protectedProcedure
    .input(zMergeTagsInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await mergeTags(ctx, ctx.user, input.from, input.to))),
});
