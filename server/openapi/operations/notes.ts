import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { SortOrder } from '../../../src/enums.ts';
import {
  zApiCreateNote,
  zApiExport,
  zApiExportQuery,
  zApiNote,
  zApiNoteDetail,
  zApiNoteListQuery,
  zApiPage,
  zApiUpdateNote,
  zNoteIdParams,
} from '../../../src/schemas/openapi.ts';
import type { User } from '../../domain/account/user.ts';
import type { ChangeDeps } from '../../domain/changes.ts';
import { exportHighlights } from '../../domain/highlights/export-highlights.ts';
import { clipHtml, clipUrl } from '../../domain/notes/clip.service.ts';
import { noteDetailWithHighlights } from '../../domain/notes/note-detail.ts';
import { listNotes } from '../../domain/notes/note-list.ts';
import { toNoteSummary } from '../../domain/notes/note-view.ts';
import { exportNote, getNote, ownNote } from '../../domain/notes/notes.service.ts';
import { deleteNote, restoreNotes, trashNotes, updateNote } from '../../domain/notes/organise.service.ts';
import { operation } from '../operation.ts';
import { toApiNote, toApiNoteDetail, toApiPage } from '../shapes.ts';

const tag = 'Notes';

/** A clipped page's HTML (5 MB) with room for its JSON escaping. */
const CREATE_NOTE_BODY_MAX = 12 * 1024 * 1024;

/**
 * A note as it is after a change, for the answer: read afresh, as the changes were native
 * updates that the request's entity manager, which may have loaded the note before, never saw.
 */
async function current(em: EntityManager, user: User, id: string) {
  return toApiNote(toNoteSummary(await ownNote(em.fork(), user, id)));
}

/** Trash and restore: one note moved by the app's own service, answered as it is after. */
function noteMove(
  verb: 'trash' | 'restore',
  operationId: string,
  summary: string,
  move: (deps: ChangeDeps, user: User, ids: string[]) => Promise<number>,
) {
  return operation({
    method: 'post',
    path: `/notes/{id}/${verb}`,
    operationId,
    summary,
    tag,
    scope: 'write',
    params: zNoteIdParams,
    response: zApiNote,
    handle: async (call) => {
      const { em, user, params } = call;
      await move(call, user, [params.id]);
      return current(em, user, params.id);
    },
  });
}

export const noteOperations = [
  operation({
    method: 'get',
    path: '/notes',
    operationId: 'listNotes',
    summary: 'List notes',
    description: 'Newest first, filtered by state (`nav`), tag, folder or a search.',
    tag,
    scope: 'read',
    query: zApiNoteListQuery,
    refuses: { '404': 'The folder (`folderId`) is not found, or not yours.' },
    response: zApiPage(zApiNote),
    handle: async ({ em, user, query }) =>
      toApiPage(await listNotes(em, user, { ...query, sort: SortOrder.newestFirst }), toApiNote),
  }),
  operation({
    method: 'post',
    path: '/notes',
    operationId: 'createNote',
    summary: 'Save a page',
    description:
      'From a URL (the server fetches and parses it) or from the page’s HTML (parsed, never fetched). ' +
      'Saving a URL again returns the same note.',
    tag,
    scope: 'write',
    body: zApiCreateNote,
    bodyMax: CREATE_NOTE_BODY_MAX,
    response: z.object({ note: zApiNote, created: z.boolean() }),
    status: 201,
    handle: async (call) => {
      const { user, body } = call;
      const { note, created } = body.html
        ? await clipHtml(call, user, { url: body.url, html: body.html })
        : await clipUrl(call, user, body.url);
      return { note: toApiNote(toNoteSummary(note)), created };
    },
  }),
  operation({
    method: 'get',
    path: '/notes/{id}',
    operationId: 'getNote',
    summary: 'A note with its article and highlights',
    tag,
    scope: 'read',
    params: zNoteIdParams,
    response: zApiNoteDetail,
    handle: async ({ em, queues, user, params }) => {
      const { note, highlights } = await noteDetailWithHighlights(em, queues, user, params.id);
      return toApiNoteDetail(note, highlights);
    },
  }),
  operation({
    method: 'patch',
    path: '/notes/{id}',
    operationId: 'updateNote',
    summary: 'Change a note’s state, tags or folder',
    tag,
    scope: 'write',
    params: zNoteIdParams,
    body: zApiUpdateNote,
    response: zApiNote,
    handle: async (call) => {
      const { em, user, params, body } = call;
      await updateNote(call, user, params.id, body);
      return current(em, user, params.id);
    },
  }),
  noteMove('trash', 'trashNote', 'Move a note to the trash', trashNotes),
  noteMove('restore', 'restoreNote', 'Take a note out of the trash', restoreNotes),
  operation({
    method: 'delete',
    path: '/notes/{id}',
    operationId: 'deleteNote',
    summary: 'Delete a note for good, with its highlights',
    tag,
    scope: 'write',
    params: zNoteIdParams,
    response: z.object({ deleted: z.literal(true) }),
    handle: async (call) => {
      const { user, params } = call;
      await deleteNote(call, user, params.id);
      return { deleted: true as const };
    },
  }),
  operation({
    method: 'get',
    path: '/notes/{id}/export',
    operationId: 'exportNote',
    summary: 'Export a note',
    description:
      '`text` (plain text), `markdown` (the article), `article` (the sanitised HTML) or `highlights` (Markdown).',
    tag,
    scope: 'read',
    params: zNoteIdParams,
    query: zApiExportQuery,
    response: zApiExport,
    handle: async ({ em, user, params, query, deps }) => {
      if (query.format === 'highlights')
        return exportHighlights(em, user, { noteId: params.id, format: 'markdown' });
      if (query.format === 'article') {
        const { note, content } = await getNote(em, user, params.id);
        return { filename: `${note.id}.html`, mimeType: 'text/html', content: content?.contentHtml ?? '' };
      }
      return exportNote(em, user, { id: params.id, format: query.format }, deps.compute);
    },
  }),
];
