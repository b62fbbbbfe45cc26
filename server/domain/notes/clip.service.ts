import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import { newId } from '../../../src/rules/id.ts';
import { normalizeNoteUrl } from '../../../src/rules/note-url.ts';
import { toStorableText } from '../../../src/rules/text.ts';
import { clock } from '../../clock.ts';
import { Note, NoteContent, type User } from '../../db/entities/index.ts';
import { type ChangeDeps, change } from '../changes.ts';
import { noteOf } from '../webhooks/event-data.ts';
import { recordWebhookEvent } from '../webhooks/events.ts';
import {
  enqueueClip,
  moveClipToQueue,
  NEW_NOTE_CLIP_STATE,
  type RequeueEvent,
  type RequeueOptions,
} from './clip-state.ts';

export { enqueueClip };

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
      ...NEW_NOTE_CLIP_STATE,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict(['user', 'urlHash'])
    .ignore()
    .execute('run');
  const note = await em.findOneOrFail(Note, { user: user.id, urlHash: hash });
  if (inserted.affectedRows === 1) await recordWebhookEvent(em, user, 'note.created', noteOf(note));
  return { note, created: inserted.affectedRows === 1 };
}

/** A new note's clip: queued once the note has committed, so the worker always finds it. */
async function createNote(
  deps: ChangeDeps,
  user: User,
  rawUrl: string,
  source: 'url' | 'html',
  html?: string,
) {
  return change(deps, user, async ({ tx, afterCommit }) => {
    const found = await findOrCreateNote(tx, user, rawUrl, source);
    if (found.created) {
      if (html !== undefined) await storeHtml(tx, found.note.id, html);
      afterCommit(() => enqueueClip(deps.queues, found.note));
    }
    return found;
  });
}

/** A known note's clip queued again (with `within`'s writes, all or nothing); false when it was not moved. */
async function requeueNote(
  deps: ChangeDeps,
  user: User,
  note: Note,
  event: RequeueEvent,
  options?: RequeueOptions,
): Promise<boolean> {
  const requeued = await change(deps, user, async ({ tx, afterCommit }) => {
    const attempt = await moveClipToQueue(tx, note.id, event, options);
    if (attempt !== null) afterCommit(() => enqueueClip(deps.queues, { id: note.id, clipAttempts: attempt }));
    return attempt !== null;
  });
  if (requeued) await deps.em.refresh(note);
  return requeued;
}

const storeHtml = (tx: EntityManager, noteId: string, html: string) =>
  tx.upsert(NoteContent, { note: noteId, originalHtml: html, updatedAt: clock.now() });

/**
 * Saves a URL: the worker fetches and parses it. Saving it again returns the existing note,
 * and a note whose clip failed is queued again (`retried`), as the user plainly wants it.
 */
export async function clipUrl(deps: ChangeDeps, user: User, rawUrl: string) {
  const { note, created } = await createNote(deps, user, rawUrl, 'url');
  const retried = !created && (await requeueNote(deps, user, note, 'saved-again'));
  return { note, created, retried };
}

/**
 * Saves a note whose HTML the client sends (extension, bookmarklet). Nothing is fetched; the
 * same parser runs. A note saved again is re-parsed from the newer HTML. A new note and its HTML
 * are one transaction, as are a known note's new HTML and its new state: a write that fails
 * leaves no note (or the old one) behind, never a queued note without its HTML. The job is
 * queued after the commit, so the worker always finds what it is asked to parse.
 */
export async function clipHtml(deps: ChangeDeps, user: User, input: { url: string; html: string }) {
  const { note, created } = await createNote(deps, user, input.url, 'html', input.html);
  if (!created)
    await requeueNote(deps, user, note, 'html-saved-again', {
      within: async (tx) => {
        await storeHtml(tx, note.id, input.html);
        await tx.nativeUpdate(Note, { id: note.id }, { source: 'html' });
      },
    });
  return { note, created };
}

/** A failed clip can be tried again by the user. */
export async function retryClip(deps: ChangeDeps, user: User, id: string): Promise<Note> {
  const note = await deps.em.findOne(Note, { id, user: user.id });
  if (!note) throw new AppError('NOT_FOUND');
  await requeueNote(deps, user, note, 'user-retry');
  return note;
}
