import type { EntityManager } from '@mikro-orm/postgresql';
import type { NoteDetail } from '../../../src/schemas/notes.ts';
import type { User } from '../../db/entities/index.ts';
import type { Queues } from '../../queue.ts';
import { readerArticle } from '../images/stored-images.ts';
import { toNoteDetail } from './note-view.ts';
import { getNote } from './notes.service.ts';

/** A note as the reader shows it: its article's images are Margin's stored copies or placeholders. */
export async function readerNote(
  em: EntityManager,
  queues: Queues,
  user: User,
  id: string,
): Promise<NoteDetail> {
  const { note, content } = await getNote(em, user, id);
  return toNoteDetail(note, content, await readerArticle(em, queues, note, content?.contentHtml ?? ''));
}
