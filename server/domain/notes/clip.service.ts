import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ClipStatus } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { jobIds } from '../../../src/jobs.ts';
import { newId } from '../../../src/rules/id.ts';
import { normalizeNoteUrl } from '../../../src/rules/note-url.ts';
import { toStorableText } from '../../../src/rules/text.ts';
import { clock } from '../../clock.ts';
import { Note, NoteContent, type User } from '../../db/entities/index.ts';
import type { Queues } from '../../queue.ts';

export function urlHash(normalizedUrl: string): string {
  return createHash('sha256').update(normalizedUrl).digest('hex');
}

/** The last path segment, decoded when it decodes (%E0%A4 does not), and storable (%00 is NUL). */
function lastPathSegment(pathname: string): string {
  const last = pathname.split('/').filter(Boolean).at(-1) ?? '';
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // Malformed percent-encoding: the segment as written.
  }
  return toStorableText(decoded);
}

function titleFromUrl(url: string): string {
  const { hostname, pathname } = new URL(url);
  const last = lastPathSegment(pathname);
  return last ? `${hostname} · ${last}` : hostname;
}

/**
 * Finds or creates the user's note for a URL. Creation is one INSERT … ON CONFLICT DO NOTHING
 * on (user, url hash), so two saves of the same URL at once still make one note.
 */
async function findOrCreateNote(em: EntityManager, user: User, rawUrl: string, source: 'url' | 'html') {
  const url = normalizeNoteUrl(rawUrl);
  if (!url) throw new AppError('BAD_REQUEST', 'errors.urlInvalid');
  const hash = urlHash(url);
  const now = clock.now();
  const inserted = await em
    .createQueryBuilder(Note)
    .insert({
      id: newId(),
      user: user.id,
      url,
      urlHash: hash,
      title: titleFromUrl(url),
      source,
      clipStatus: ClipStatus.queued,
      clipAttempts: 1,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict(['user', 'urlHash'])
    .ignore()
    .execute('run');
  const note = await em.findOneOrFail(Note, { user: user.id, urlHash: hash });
  return { note, created: inserted.affectedRows === 1 };
}

export async function enqueueClip(queues: Queues, note: Note): Promise<void> {
  await queues.clip.add('clip', { noteId: note.id }, { jobId: jobIds.clip(note.id, note.clipAttempts) });
}

/**
 * Saves a URL: the worker fetches and parses it. Saving it again returns the existing note,
 * and a note whose clip failed is queued again (`retried`), as the user plainly wants it.
 */
export async function clipUrl(em: EntityManager, queues: Queues, user: User, rawUrl: string) {
  const { note, created } = await findOrCreateNote(em, user, rawUrl, 'url');
  if (created) await enqueueClip(queues, note);
  const retried = !created && (await requeueFailedClip(em, queues, note));
  return { note, created, retried };
}

/**
 * Saves a note whose HTML the client sends (extension, bookmarklet). Nothing is fetched; the
 * same parser runs. A note saved again is re-parsed from the newer HTML. The note, its HTML
 * and its new state are one transaction: a write that fails leaves no note (or the old one)
 * behind, never a queued note without its HTML. The job is queued after the commit, so the
 * worker always finds what it is asked to parse.
 */
export async function clipHtml(
  em: EntityManager,
  queues: Queues,
  user: User,
  input: { url: string; html: string },
) {
  const { note, created } = await em.transactional(async (tem) => {
    const found = await findOrCreateNote(tem, user, input.url, 'html');
    await tem.upsert(NoteContent, { note: found.note.id, originalHtml: input.html, updatedAt: clock.now() });
    if (!found.created) {
      found.note.source = 'html';
      found.note.clipStatus = ClipStatus.queued;
      found.note.clipError = null;
      found.note.clipAttempts += 1;
      await tem.flush();
    }
    return found;
  });
  await enqueueClip(queues, note);
  return { note, created };
}

/** A failed clip can be tried again by the user. */
export async function retryClip(em: EntityManager, queues: Queues, user: User, id: string): Promise<Note> {
  const note = await em.findOne(Note, { id, user: user.id });
  if (!note) throw new AppError('NOT_FOUND');
  await requeueFailedClip(em, queues, note);
  return note;
}

/**
 * Queues a failed clip again and answers whether it did. One conditional UPDATE, so of two
 * retries at once only one moves the note on (and enqueues its next attempt).
 */
async function requeueFailedClip(em: EntityManager, queues: Queues, note: Note): Promise<boolean> {
  const rows = await em.execute<{ clip_attempts: number }[]>(
    `update "note" set "clip_status" = ?, "clip_error" = null, "clip_attempts" = "clip_attempts" + 1,
       "updated_at" = ?
     where "id" = ? and "clip_status" = ? returning "clip_attempts"`,
    [ClipStatus.queued, clock.now(), note.id, ClipStatus.failed],
  );
  const [row] = rows;
  if (!row) return false;
  await em.refresh(note);
  await enqueueClip(queues, note);
  return true;
}
