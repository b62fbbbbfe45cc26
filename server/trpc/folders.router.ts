import { z } from 'zod';
import {
  zCreateFolderInput,
  zFolder,
  zFolderIdInput,
  zRenameFolderInput,
} from '../../src/schemas/folders.ts';
import { createFolder, deleteFolder, listFolders, renameFolder } from '../domain/folders/folders.service.ts';
import { protectedProcedure, router } from './init.ts';

export const foldersRouter = router({
  list: protectedProcedure.output(z.array(zFolder)).query(({ ctx }) => listFolders(ctx.em, ctx.user)),

  create: protectedProcedure
    .input(zCreateFolderInput)
    .output(zFolder)
    .mutation(({ ctx, input }) => createFolder(ctx.em, ctx.user, input)),

  rename: protectedProcedure
    .input(zRenameFolderInput)
    .output(zFolder)
    .mutation(({ ctx, input }) => renameFolder(ctx.em, ctx.user, input)),

  delete: protectedProcedure
    .input(zFolderIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteFolder(ctx, ctx.user, input.id)),
});
