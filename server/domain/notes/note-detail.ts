import type { EntityManager } from '@mikro-orm/postgresql';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import type { NoteDetail } from '../../../src/schemas/notes.ts';
import type { User } from '../../db/entities/index.ts';
import type { Queues } from '../../queue.ts';
import { noteHighlights } from '../highlights/highlights.service.ts';
import { readerArticle } from '../images/stored-images.ts';
import { toNoteDetail } from './note-view.ts';
import { getNote } from './notes.service.ts';

/**
 * One of the user's notes as every front serves it: its article as the reader shows it, each
 * image Margin's stored copy or a placeholder (an image not stored yet is queued).
 */
export async function noteDetail(
  em: EntityManager,
  queues: Queues,
  user: User,
  id: string,
): Promise<NoteDetail> {
  const { note, content } = await getNote(em, user, id);
  return toNoteDetail(note, content, await readerArticle(em, queues, note, content?.contentHtml ?? ''));
}

/** A note's detail with its highlights in reading order (the Open API answers both at once). */
export async function noteDetailWithHighlights(
  em: EntityManager,
  queues: Queues,
  user: User,
  id: string,
): Promise<{ note: NoteDetail; highlights: Highlight[] }> {
  const note = await noteDetail(em, queues, user, id);
  return { note, highlights: await noteHighlights(em, user, id) };
}
