import type { EntityManager } from '@mikro-orm/postgresql';
import { tsvectorLiteral } from '../../../src/search/tokens.ts';

// The search index is service code: these functions are its only live writers (the clip, the
// daily note and the highlight services call them in the transaction of the change), and the
// vectors below are the one definition of what each holds, for them and for reindex.ts.

/** A note's own vector: title, site, author and article text. */
export function noteVector(fields: {
  title: string;
  siteName?: string | null;
  author?: string | null;
  text: string;
}): string {
  return tsvectorLiteral(fields.title, fields.siteName, fields.author, fields.text);
}

/** A highlight's vector: its text and its annotation. */
export function highlightVector(fields: { text: string; annotation?: string | null }): string {
  return tsvectorLiteral(fields.text, fields.annotation);
}

/** The highlights side of a note: every highlight text and annotation on it. */
export function noteHighlightsVector(highlights: { text: string; annotation?: string | null }[]): string {
  return tsvectorLiteral(...highlights.flatMap((h) => [h.text, h.annotation]));
}

/** Re-indexes a note: title, site, author and article text. */
export async function indexNote(
  em: EntityManager,
  noteId: string,
  fields: { title: string; siteName?: string | null; author?: string | null; text: string },
): Promise<void> {
  await em.execute('update "note" set "search_vector" = ?::tsvector where "id" = ?', [
    noteVector(fields),
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
    highlightVector(fields),
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
    noteHighlightsVector(highlights),
    noteId,
  ]);
}
