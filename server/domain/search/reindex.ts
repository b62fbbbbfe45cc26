import type { EntityManager } from '@mikro-orm/postgresql';
import { SEARCH_TOKENS_VERSION } from '../../../src/search/tokens.ts';
import { clock } from '../../clock.ts';
import { pgTextArray } from '../../db/pg-array.ts';
import { highlightVector, noteHighlightsVector, noteVector } from './search-index.ts';

/** The maintenance_state row holding the tokenizer version the stored vectors were built with. */
const STATE = 'search-index';
const BATCH_SIZE = 200;

/** The tokenizer version the stored search vectors were built with (0 if never recorded). */
export async function searchIndexVersion(em: EntityManager): Promise<number> {
  const [row] = await em.execute<{ version: number }[]>(
    'select "version" from "maintenance_state" where "name" = ?',
    [STATE],
  );
  return row?.version ?? 0;
}

export async function setSearchIndexVersion(em: EntityManager, version: number): Promise<void> {
  await em.execute(
    `insert into "maintenance_state" ("name", "version", "updated_at") values (?, ?, ?)
     on conflict ("name") do update set "version" = excluded."version", "updated_at" = excluded."updated_at"`,
    [STATE, version, clock.now()],
  );
}

/**
 * Rebuilds every stored search vector with the current tokenizer, once: when the recorded
 * version is behind SEARCH_TOKENS_VERSION. Notes, then highlights, in batches in key order (keyset
 * pagination); each batch locks its rows while it reads and rewrites them, so an edit made
 * meanwhile waits and then writes its own vector over ours, never the other way round. The
 * version is recorded only at the end, so an interrupted run simply starts again. Running it
 * beside live traffic is safe: new writes already use the current tokenizer.
 */
export async function reindexSearch(
  em: EntityManager,
  { batchSize = BATCH_SIZE }: { batchSize?: number } = {},
): Promise<{ upToDate: true } | { notes: number; highlights: number }> {
  if ((await searchIndexVersion(em)) >= SEARCH_TOKENS_VERSION) return { upToDate: true };
  let notes = 0;
  for (let after = ''; ; ) {
    const done = await em.transactional((tem) => reindexNotes(tem, after, batchSize));
    notes += done.count;
    if (done.last === null) break;
    after = done.last;
  }
  let highlights = 0;
  for (let after: HighlightKey = { userId: '0', id: '' }; ; ) {
    const done = await em.transactional((tem) => reindexHighlights(tem, after, batchSize));
    highlights += done.count;
    if (done.last === null) break;
    after = done.last;
  }
  await setSearchIndexVersion(em, SEARCH_TOKENS_VERSION);
  return { notes, highlights };
}

/**
 * One batch of notes after `after`: the note's own vector as indexNote writes it (title, site,
 * author, article text; a note never clipped keeps its empty one) and its highlights' vector as
 * indexNoteHighlights writes it. `last` is null when this was the final batch.
 */
async function reindexNotes(
  em: EntityManager,
  after: string,
  limit: number,
): Promise<{ count: number; last: string | null }> {
  const notes = await em.execute<
    { id: string; title: string; site_name: string | null; author: string | null; indexed: boolean }[]
  >(
    `select "id", "title", "site_name", "author", "search_vector" <> ''::tsvector as "indexed" from "note"
     where "id" > ? order by "id" limit ? for update`,
    [after, limit],
  );
  if (!notes.length) return { count: 0, last: null };
  const ids = pgTextArray(notes.map((p) => p.id));
  const texts = new Map(
    (
      await em.execute<{ note_id: string; text: string }[]>(
        'select "note_id", "text" from "note_content" where "note_id" = any(?::text[])',
        [ids],
      )
    ).map((c) => [c.note_id, c.text]),
  );
  const highlights = new Map<string, { text: string; annotation: string | null }[]>();
  for (const h of await em.execute<{ note_id: string; text: string; annotation: string | null }[]>(
    'select "note_id", "text", "annotation" from "highlight" where "note_id" = any(?::text[])',
    [ids],
  )) {
    const list = highlights.get(h.note_id) ?? [];
    list.push(h);
    highlights.set(h.note_id, list);
  }
  await em.execute(
    `update "note" n set "search_vector" = v.search::tsvector, "highlights_vector" = v.highlights::tsvector
     from unnest(?::text[], ?::text[], ?::text[]) as v(id, search, highlights) where n."id" = v.id`,
    [
      ids,
      pgTextArray(
        notes.map((p) =>
          p.indexed
            ? noteVector({
                title: p.title,
                siteName: p.site_name,
                author: p.author,
                text: texts.get(p.id) ?? '',
              })
            : '',
        ),
      ),
      pgTextArray(notes.map((p) => noteHighlightsVector(highlights.get(p.id) ?? []))),
    ],
  );
  return { count: notes.length, last: notes.length < limit ? null : (notes.at(-1)?.id ?? null) };
}

/** Highlights are keyed by owner and id; user ids travel as text (bigint). */
interface HighlightKey {
  userId: string;
  id: string;
}

/** One batch of highlights after `after`: each highlight's vector as indexHighlight writes it (text, annotation). */
async function reindexHighlights(
  em: EntityManager,
  after: HighlightKey,
  limit: number,
): Promise<{ count: number; last: HighlightKey | null }> {
  const highlights = await em.execute<
    { user_id: string; id: string; text: string; annotation: string | null }[]
  >(
    // Ordered by the columns, not the text alias (which would sort every remaining row per batch).
    `select h."user_id"::text as "user_id", h."id", h."text", h."annotation" from "highlight" h
     where (h."user_id", h."id") > (?::bigint, ?) order by h."user_id", h."id" limit ? for update`,
    [after.userId, after.id, limit],
  );
  if (!highlights.length) return { count: 0, last: null };
  await em.execute(
    `update "highlight" h set "search_vector" = v.search::tsvector
     from unnest(?::bigint[], ?::text[], ?::text[]) as v(user_id, id, search)
     where h."user_id" = v.user_id and h."id" = v.id`,
    [
      pgTextArray(highlights.map((n) => n.user_id)),
      pgTextArray(highlights.map((n) => n.id)),
      pgTextArray(highlights.map(highlightVector)),
    ],
  );
  const last = highlights.at(-1);
  return {
    count: highlights.length,
    last: highlights.length < limit || !last ? null : { userId: last.user_id, id: last.id },
  };
}
