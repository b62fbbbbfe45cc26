import { z } from 'zod';
import {
  zChanged,
  zCreateFolderInput,
  zFolder,
  zFolderIdInput,
  zLibraryList,
  zLibraryListInput,
  zMergeTagsInput,
  zMoveToFolderInput,
  zNavCounts,
  zPageIdsInput,
  zRenameFolderInput,
  zRenameTagInput,
  zSetFlowInput,
  zTagCount,
  zTagPagesInput,
} from '../../src/schemas/library.ts';
import type { Folder } from '../db/entities/index.ts';
import {
  addTag,
  createFolder,
  deleteFolder,
  deleteForever,
  listFolders,
  mergeTags,
  moveToFolder,
  ownFolder,
  removeTag,
  renameFolder,
  restorePages,
  setFlow,
  tagCounts,
  trashPages,
} from '../domain/library/library.service.ts';
import { listLibrary, navCounts } from '../domain/library/library-query.ts';
import { protectedProcedure, router } from './init.ts';

const changed = (n: number) => ({ changed: n });

function toFolderView(folder: Folder, pageCount = 0) {
  return {
    id: folder.id,
    name: folder.name,
    parentId: (folder.parent as Folder | null)?.id ?? null,
    pageCount,
    createdAt: folder.createdAt,
  };
}

export const libraryRouter = router({
  list: protectedProcedure
    .input(zLibraryListInput)
    .output(zLibraryList)
    .query(async ({ ctx, input }) => {
      // A folder that is not the user's is not found, as everywhere else.
      if (input.folderId) await ownFolder(ctx.em, ctx.user, input.folderId);
      return listLibrary(ctx.em, ctx.user, input);
    }),

  counts: protectedProcedure.output(zNavCounts).query(({ ctx }) => navCounts(ctx.em, ctx.user)),

  setFlow: protectedProcedure
    .input(zSetFlowInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await setFlow(ctx.em, ctx.user, input.ids, input.flow))),

  trash: protectedProcedure
    .input(zPageIdsInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await trashPages(ctx.em, ctx.user, input.ids))),

  restore: protectedProcedure
    .input(zPageIdsInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await restorePages(ctx.em, ctx.user, input.ids))),

  deleteForever: protectedProcedure
    .input(zPageIdsInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await deleteForever(ctx.em, ctx.user, input.ids))),

  tags: protectedProcedure.output(z.array(zTagCount)).query(({ ctx }) => tagCounts(ctx.em, ctx.user)),

  addTag: protectedProcedure
    .input(zTagPagesInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await addTag(ctx.em, ctx.user, input.ids, input.tag))),

  removeTag: protectedProcedure
    .input(zTagPagesInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await removeTag(ctx.em, ctx.user, input.ids, input.tag))),

  renameTag: protectedProcedure
    .input(zRenameTagInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await mergeTags(ctx.em, ctx.user, [input.from], input.to))),

  mergeTags: protectedProcedure
    .input(zMergeTagsInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) => changed(await mergeTags(ctx.em, ctx.user, input.from, input.to))),

  folders: protectedProcedure.output(z.array(zFolder)).query(({ ctx }) => listFolders(ctx.em, ctx.user)),

  createFolder: protectedProcedure
    .input(zCreateFolderInput)
    .output(zFolder)
    .mutation(async ({ ctx, input }) => toFolderView(await createFolder(ctx.em, ctx.user, input))),

  renameFolder: protectedProcedure
    .input(zRenameFolderInput)
    .output(zFolder)
    .mutation(async ({ ctx, input }) => toFolderView(await renameFolder(ctx.em, ctx.user, input))),

  deleteFolder: protectedProcedure
    .input(zFolderIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteFolder(ctx.em, ctx.user, input.id)),

  moveToFolder: protectedProcedure
    .input(zMoveToFolderInput)
    .output(zChanged)
    .mutation(async ({ ctx, input }) =>
      changed(await moveToFolder(ctx.em, ctx.user, input.ids, input.folderId)),
    ),
});
