import type { EntityManager } from '@mikro-orm/postgresql';
import { tsvectorLiteral } from '../../../src/search/tokens.ts';

/** Re-indexes a page: title, site, author and article text. */
export async function indexPage(
  em: EntityManager,
  pageId: string,
  fields: { title: string; siteName?: string | null; author?: string | null; text: string },
): Promise<void> {
  await em.execute('update "page" set "search_vector" = ?::tsvector where "id" = ?', [
    tsvectorLiteral(fields.title, fields.siteName, fields.author, fields.text),
    pageId,
  ]);
}

/** Re-indexes a note (keyed by owner and id): its text and its annotation. */
export async function indexNote(
  em: EntityManager,
  note: { userId: number; id: string },
  fields: { text: string; annotation?: string | null },
): Promise<void> {
  await em.execute('update "note" set "search_vector" = ?::tsvector where "user_id" = ? and "id" = ?', [
    tsvectorLiteral(fields.text, fields.annotation),
    note.userId,
    note.id,
  ]);
}

/** Re-indexes the notes side of a page: every highlight text and annotation on it. */
export async function indexPageNotes(em: EntityManager, pageId: string): Promise<void> {
  const notes = await em.execute<{ text: string; annotation: string | null }[]>(
    'select "text", "annotation" from "note" where "page_id" = ?',
    [pageId],
  );
  await em.execute('update "page" set "notes_vector" = ?::tsvector where "id" = ?', [
    tsvectorLiteral(...notes.flatMap((n) => [n.text, n.annotation])),
    pageId,
  ]);
}
