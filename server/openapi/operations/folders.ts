import { z } from 'zod';
import { zFolderName } from '../../../src/rules/folder-name.ts';
import { zCreateFolderInput } from '../../../src/schemas/folders.ts';
import { zApiFolder, zFolderIdParams } from '../../../src/schemas/openapi.ts';
import {
  createFolder,
  deleteFolder,
  listFolders,
  renameFolder,
} from '../../domain/folders/folders.service.ts';
import { operation } from '../operation.ts';
import { toApiFolder } from '../shapes.ts';

export const folderOperations = [
  operation({
    method: 'get',
    path: '/folders',
    operationId: 'listFolders',
    summary: 'Every folder',
    tag: 'Folders',
    scope: 'read',
    response: z.object({ items: z.array(zApiFolder) }),
    handle: async ({ em, user }) => ({ items: (await listFolders(em, user)).map(toApiFolder) }),
  }),
  operation({
    method: 'post',
    path: '/folders',
    operationId: 'createFolder',
    summary: 'Make a folder',
    tag: 'Folders',
    scope: 'write',
    body: zCreateFolderInput.meta({ id: 'CreateFolder' }),
    refuses: {
      '404': 'The parent folder (`parentId`) is not found, or not yours.',
      '409':
        'A folder of that name is already there, or a request with the same Idempotency-Key is still running.',
    },
    response: zApiFolder,
    status: 201,
    handle: async ({ em, user, body }) => toApiFolder(await createFolder(em, user, body)),
  }),
  operation({
    method: 'patch',
    path: '/folders/{id}',
    operationId: 'renameFolder',
    summary: 'Rename a folder',
    tag: 'Folders',
    scope: 'write',
    params: zFolderIdParams,
    body: z.object({ name: zFolderName }),
    refuses: { '409': 'A folder of that name is already there.' },
    response: zApiFolder,
    handle: async ({ em, user, params, body }) =>
      toApiFolder(await renameFolder(em, user, { id: params.id, name: body.name })),
  }),
  operation({
    method: 'delete',
    path: '/folders/{id}',
    operationId: 'deleteFolder',
    summary: 'Delete a folder (its notes stay, outside any folder)',
    tag: 'Folders',
    scope: 'write',
    params: zFolderIdParams,
    response: z.object({ deleted: z.literal(true) }),
    handle: async (call) => {
      await deleteFolder(call, call.user, call.params.id);
      return { deleted: true as const };
    },
  }),
];
