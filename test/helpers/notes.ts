import { Note, NoteContent } from '../../server/db/entities/index.ts';
import type { AppDeps } from '../../server/deps.ts';
import { urlHash } from '../../server/domain/notes/clip.service.ts';
import { indexNote } from '../../server/domain/search/search-index.ts';
import { ClipStatus, Flow } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { waitFor } from './wait.ts';

/** Weeks before the test clock's now (TEST_NOW), so made notes are neither new nor in the future. */
let madeAt = Date.parse('2026-02-01T00:00:00Z');

/**
 * A clipped note (with its text, indexed for search) made straight in the database, so tests that
 * are not about clipping skip the worker. Each note is created a minute after the previous one.
 */
export async function makeClippedNote(
  deps: AppDeps,
  userId: number,
  fields: { title: string; text: string; tags?: string[]; flow?: number; excerpt?: string; id?: string },
): Promise<Note> {
  const em = deps.orm.em.fork();
  const url = `https://pages.example/${newId()}`;
  madeAt += 60_000;
  const note = em.create(Note, {
    id: fields.id ?? newId(),
    user: userId,
    url,
    urlHash: urlHash(url),
    title: fields.title,
    excerpt: fields.excerpt ?? '',
    clipStatus: ClipStatus.done,
    tags: fields.tags ?? [],
    flow: fields.flow ?? Flow.inbox,
    createdAt: new Date(madeAt),
    updatedAt: new Date(madeAt),
  });
  em.create(NoteContent, { note, contentHtml: `<p>${fields.text}</p>`, text: fields.text });
  await em.flush();
  await indexNote(em, note.id, fields);
  return note;
}

/**
 * `count` finished notes titled "`title` 1" … "`title` count", inserted in one statement (no
 * content, no search index): for lists long enough to be windowed. Note 1 is the newest, each
 * next one a minute older, all before the notes makeClippedNote makes.
 */
export async function insertManyNotes(deps: AppDeps, userId: number, count: number, title: string) {
  await deps.orm.em.fork().execute(
    `insert into note (id, user_id, url, url_hash, title, excerpt, flow, tags, clip_status, clip_attempts,
       source, highlight_count, word_count, created_at, updated_at)
     select md5(b.title || g || b.user_id), b.user_id, 'https://bulk.example/' || g, md5('url' || g || b.user_id),
       b.title || ' ' || g, 'Excerpt ' || g, ?, '{}', ?, 0, 'url', 0, 0, b.at - g * interval '1 minute',
       b.at - g * interval '1 minute'
     from (select ?::text as title, ?::int as user_id, ?::timestamptz as at) b, generate_series(1, ?) g`,
    [Flow.inbox, ClipStatus.done, title, userId, new Date(madeAt), count],
  );
}

/**
 * A note still queued for its clip, made straight in the database with no job, no content and no
 * search index: what a clip leaves behind before a worker has taken it.
 */
export async function makeQueuedNote(
  deps: AppDeps,
  userId: number,
  fields: { url: string; title: string; source?: string; clipAttempts?: number },
): Promise<Note> {
  const em = deps.orm.em.fork();
  const note = em.create(Note, {
    id: newId(),
    user: userId,
    urlHash: urlHash(fields.url),
    clipStatus: ClipStatus.queued,
    ...fields,
  });
  await em.flush();
  return note;
}

/** Waits until the worker has finished with a note, done or failed, and answers its row. */
export function clipSettled(deps: AppDeps, noteId: string): Promise<Note> {
  return waitFor(
    async () => {
      const note = await deps.orm.em.fork().findOneOrFail(Note, { id: noteId });
      return note.clipStatus === ClipStatus.done || note.clipStatus === ClipStatus.failed ? note : undefined;
    },
    30_000,
    `note ${noteId} to settle`,
  );
}
