import { z } from 'zod';
import { zApiTag } from '../../../src/schemas/openapi.ts';
import { tagCounts } from '../../domain/notes/note-tags.ts';
import { operation } from '../operation.ts';

export const tagOperations = [
  operation({
    method: 'get',
    path: '/tags',
    operationId: 'listTags',
    summary: 'Every tag, with how many notes and highlights carry it',
    tag: 'Tags',
    scope: 'read',
    response: z.object({ items: z.array(zApiTag) }),
    handle: async ({ em, user }) => ({ items: await tagCounts(em, user) }),
  }),
];
