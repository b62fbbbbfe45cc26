import { z } from 'zod';
import { zFolderName } from '../rules/folder-name.ts';
import { zStoredId } from '../rules/id.ts';

export const zFolderId = zStoredId;

export const zFolder = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  noteCount: z.number().int(),
  createdAt: z.date(),
});
export type FolderView = z.infer<typeof zFolder>;

export const zCreateFolderInput = z.object({ name: zFolderName, parentId: zFolderId.nullish() });
export const zRenameFolderInput = z.object({ id: zFolderId, name: zFolderName });
export const zFolderIdInput = z.object({ id: zFolderId });
