import type { WebhookDailyAppended, WebhookHighlight, WebhookNote } from '../../../src/schemas/webhooks.ts';
import type { Highlight, Note } from '../../db/entities/index.ts';
import { asEpochSeconds, type FieldReader, refId, rowReader } from '../../db/row.ts';

// What a webhook event carries of a note and a highlight: the Open API's field names and units
// (times in epoch seconds), the fields a receiver needs to act (the REST front's `GET` has the
// rest), built from an entity or from a raw row alike.

type NoteField =
  | 'id'
  | 'title'
  | 'url'
  | 'flow'
  | 'trashedAt'
  | 'tags'
  | 'folderId'
  | 'createdAt'
  | 'updatedAt';
type HighlightField =
  | 'id'
  | 'noteId'
  | 'coreType'
  | 'text'
  | 'imageUrl'
  | 'slotId'
  | 'style'
  | 'annotation'
  | 'tags'
  | 'createdAt'
  | 'updatedAt';

function webhookNote(read: FieldReader<NoteField>): WebhookNote {
  return {
    id: String(read('id')),
    title: String(read('title') ?? ''),
    url: String(read('url') ?? ''),
    flow: Number(read('flow')),
    trashed: read('trashedAt') != null,
    tags: (read('tags') as string[] | null | undefined) ?? [],
    folderId: (read('folderId') as string | null | undefined) ?? null,
    createAt: asEpochSeconds(read('createdAt')),
    updateAt: asEpochSeconds(read('updatedAt')),
  };
}

function webhookHighlight(read: FieldReader<HighlightField>): WebhookHighlight {
  return {
    id: String(read('id')),
    noteId: (read('noteId') as string | null | undefined) ?? null,
    coreType: Number(read('coreType')),
    text: String(read('text') ?? ''),
    imageUrl: (read('imageUrl') as string | null | undefined) ?? null,
    slotId: Number(read('slotId')),
    style: Number(read('style')),
    annotation: (read('annotation') as string | null | undefined) ?? null,
    tags: (read('tags') as string[] | null | undefined) ?? [],
    createAt: asEpochSeconds(read('createdAt')),
    updateAt: asEpochSeconds(read('updatedAt')),
  };
}

/** The note columns `noteFromRow` reads (select them as they are named). */
export const NOTE_DATA_COLUMNS = 'id, title, url, flow, trashed_at, tags, folder_id, created_at, updated_at';
/** The highlight columns `highlightFromRow` reads. */
export const HIGHLIGHT_DATA_COLUMNS =
  'id, note_id, core_type, text, image_url, slot_id, style, annotation, tags, created_at, updated_at';

export const noteFromRow = (row: Record<string, unknown>): WebhookNote => webhookNote(rowReader(row));
export const highlightFromRow = (row: Record<string, unknown>): WebhookHighlight =>
  webhookHighlight(rowReader(row));

export function noteOf(note: Note): WebhookNote {
  return webhookNote((field) => (field === 'folderId' ? refId(note.folder) : note[field]));
}

export function highlightOf(highlight: Highlight): WebhookHighlight {
  return webhookHighlight((field) => (field === 'noteId' ? refId(highlight.note) : highlight[field]));
}

/** What was appended to a day's daily note (`noteId`): Markdown `text`, quoting `highlightIds` if any. */
export function dailyAppended(
  day: string,
  noteId: string,
  text: string,
  highlightIds: string[] = [],
): WebhookDailyAppended {
  return { day, noteId, text, highlightIds };
}
