import { z } from 'zod';
import {
  zApiCreateHighlight,
  zApiHighlight,
  zApiHighlightListQuery,
  zApiPage,
  zApiUpdateHighlight,
  zHighlightIdParams,
} from '../../../src/schemas/openapi.ts';
import {
  deleteHighlight,
  getHighlight,
  listHighlights,
  updateHighlight,
} from '../../domain/highlights/highlights.service.ts';
import { highlightPassage } from '../../domain/highlights/quote-selectors.ts';
import { operation } from '../operation.ts';
import { toApiHighlight, toApiPage } from '../shapes.ts';

const tag = 'Highlights';

export const highlightOperations = [
  operation({
    method: 'get',
    path: '/highlights',
    operationId: 'listHighlights',
    summary: 'List highlights',
    description: 'Newest first across notes, or one note’s; by colour, tag or keywords.',
    tag,
    scope: 'read',
    query: zApiHighlightListQuery,
    refuses: { '404': 'The note (`noteId`) is not found, or not yours.' },
    response: zApiPage(zApiHighlight),
    handle: async ({ em, user, query }) => toApiPage(await listHighlights(em, user, query), toApiHighlight),
  }),
  operation({
    method: 'post',
    path: '/highlights',
    operationId: 'createHighlight',
    summary: 'Highlight a passage of a note',
    description:
      'Give the passage as W3C selectors (over the note’s `text`) or as `quote`, the exact text. ' +
      'Sending your own `id` makes a retried create return the same highlight.',
    tag,
    scope: 'write',
    extension: 'highlights',
    body: zApiCreateHighlight,
    refuses: {
      '404': 'The note (`noteId`) is not found, or not yours.',
      '409':
        'Your `id` is a highlight on another note, or a request with the same Idempotency-Key is still running.',
    },
    response: zApiHighlight,
    status: 201,
    handle: async (call) => toApiHighlight(await highlightPassage(call, call.user, call.body)),
  }),
  operation({
    method: 'get',
    path: '/highlights/{id}',
    operationId: 'getHighlight',
    summary: 'A highlight',
    tag,
    scope: 'read',
    params: zHighlightIdParams,
    response: zApiHighlight,
    handle: async ({ em, user, params }) => toApiHighlight(await getHighlight(em, user, params.id)),
  }),
  operation({
    method: 'patch',
    path: '/highlights/{id}',
    operationId: 'updateHighlight',
    summary: 'Change a highlight’s colour, style, text, annotation or tags',
    tag,
    scope: 'write',
    extension: 'highlights',
    params: zHighlightIdParams,
    body: zApiUpdateHighlight,
    response: zApiHighlight,
    handle: async (call) => {
      const { user, params, body } = call;
      return toApiHighlight(await updateHighlight(call, user, { ...body, id: params.id }));
    },
  }),
  operation({
    method: 'delete',
    path: '/highlights/{id}',
    operationId: 'deleteHighlight',
    summary: 'Delete a highlight',
    tag,
    scope: 'write',
    extension: 'highlights',
    params: zHighlightIdParams,
    response: z.object({ deleted: z.literal(true) }),
    handle: async (call) => {
      const { user, params } = call;
      await deleteHighlight(call, user, params.id);
      return { deleted: true as const };
    },
  }),
];
