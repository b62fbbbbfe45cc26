import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeNoteUrl } from '../../../src/rules/note-url.ts';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import { Note, type User } from '../../db/entities/index.ts';
import { noteHighlights } from '../highlights/highlights.service.ts';
import { urlHash } from './clip.service.ts';

/** The user's note of a page, by its address as saving normalises it; null for a page not saved. */
export async function noteByUrl(em: EntityManager, user: User, url: string): Promise<Note | null> {
  const normalized = normalizeNoteUrl(url);
  return normalized ? em.findOne(Note, { user: user.id, urlHash: urlHash(normalized) }) : null;
}

/** A page's saved note with its highlights in reading order (what the extension marks on the page), or null. */
export async function pageNote(
  em: EntityManager,
  user: User,
  url: string,
): Promise<{ note: Note; highlights: Highlight[] } | null> {
  const note = await noteByUrl(em, user, url);
  if (!note) return null;
  return { note, highlights: await noteHighlights(em, user, note.id) };
}
