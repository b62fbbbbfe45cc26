import type { EntityManager } from '@mikro-orm/postgresql';
import { tsvectorLiteral } from '../../../src/search/tokens.ts';

/** Re-indexes a note: title, site, author and article text. */
export async function indexNote(
  em: EntityManager,
  noteId: string,
  fields: { title: string; siteName?: string | null; author?: string | null; text: string },
): Promise<void> {
  await em.execute('update "note" set "search_vector" = ?::tsvector where "id" = ?', [
    tsvectorLiteral(fields.title, fields.siteName, fields.author, fields.text),
    noteId,
  ]);
}

/** Re-indexes a highlight (keyed by owner and id): its text and its annotation. */
export async function indexHighlight(
  em: EntityManager,
  highlight: { userId: number; id: string },
  fields: { text: string; annotation?: string | null },
): Promise<void> {
  await em.execute('update "highlight" set "search_vector" = ?::tsvector where "user_id" = ? and "id" = ?', [
    tsvectorLiteral(fields.text, fields.annotation),
    highlight.userId,
    highlight.id,
  ]);
}

/** Re-indexes the highlights side of a note: every highlight text and annotation on it. */
export async function indexNoteHighlights(em: EntityManager, noteId: string): Promise<void> {
  const highlights = await em.execute<{ text: string; annotation: string | null }[]>(
    'select "text", "annotation" from "highlight" where "note_id" = ?',
    [noteId],
  );
  await em.execute('update "note" set "highlights_vector" = ?::tsvector where "id" = ?', [
    tsvectorLiteral(...highlights.flatMap((n) => [n.text, n.annotation])),
    noteId,
  ]);
}
