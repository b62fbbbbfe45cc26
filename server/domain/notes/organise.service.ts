import type { EntityManager, QueryResult } from '@mikro-orm/postgresql';
import { TRASH_RETENTION_MS } from '../../../src/constants.ts';
import { NoteKind } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { clock } from '../../clock.ts';
import { Note, type User } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';
import type { Queues } from '../../queue.ts';
import { type ChangeDeps, change } from '../changes.ts';
import { ownFolder } from '../folders/folders.service.ts';
import { queueStoredFilesPurge } from '../images/stored-images.ts';
import { recordHighlightEvents, recordNoteEvents } from '../webhooks/events.ts';

/**
 * Every bulk change is one statement scoped to the user: another user's ids change nothing.
 * When nothing changed and none of the ids is one of the user's notes, the answer is NOT_FOUND,
 * as for a single id; a selection with some notes gone (deleted on another device) still works.
 */
async function changedOrNotFound(em: EntityManager, user: User, ids: string[], changed: number) {
  if (changed > 0) return changed;
  if (!(await em.count(Note, listed(user, ids)))) throw new AppError('NOT_FOUND');
  return 0;
}

/** The user's web notes among `ids`: what the list shows and acts on (never a daily note). */
function listed(user: User, ids: string[]) {
  return { id: { $in: ids }, user: user.id, kind: NoteKind.web };
}

/**
 * A bulk change of the user's notes among `ids` (`write` answers how many rows it changed): one
 * change that also records note.updated for each note it changed; answers the count.
 */
function changeNotes(
  deps: ChangeDeps,
  user: User,
  ids: string[],
  write: (tx: EntityManager) => Promise<number>,
): Promise<number> {
  return change(deps, user, async ({ tx }) => {
    const changed = await write(tx);
    await recordNoteEvents(tx, user, 'note.updated', ids);
    return changedOrNotFound(tx, user, ids, changed);
  });
}

export function setFlow(deps: ChangeDeps, user: User, ids: string[], flow: number): Promise<number> {
  return changeNotes(deps, user, ids, (tx) =>
    tx.nativeUpdate(Note, { ...listed(user, ids), trashedAt: null }, { flow, updatedAt: clock.now() }),
  );
}

export function trashNotes(deps: ChangeDeps, user: User, ids: string[], now = clock.now()): Promise<number> {
  return changeNotes(deps, user, ids, (tx) =>
    tx.nativeUpdate(Note, { ...listed(user, ids), trashedAt: null }, { trashedAt: now }),
  );
}

export function restoreNotes(deps: ChangeDeps, user: User, ids: string[]): Promise<number> {
  return changeNotes(deps, user, ids, (tx) =>
    tx.nativeUpdate(Note, { ...listed(user, ids), trashedAt: { $ne: null } }, { trashedAt: null }),
  );
}

/**
 * Force-delete: only notes already in the trash; their content and highlights go with them, and
 * their stored images by a job (each deletion for good below queues it).
 */
export function deleteForever(deps: ChangeDeps, user: User, ids: string[]): Promise<number> {
  return change(deps, user, async ({ tx, afterCommit }) => {
    const changed = await tx.nativeDelete(Note, { ...listed(user, ids), trashedAt: { $ne: null } });
    if (changed) afterCommit(() => queueStoredFilesPurge(deps.queues, [user.id]));
    return changedOrNotFound(tx, user, ids, changed);
  });
}

/** Deletes one note for good whether or not it is in the trash (the Open API's DELETE). */
export function deleteNote(deps: ChangeDeps, user: User, id: string): Promise<void> {
  return change(deps, user, async ({ tx, afterCommit }) => {
    if (!(await tx.nativeDelete(Note, listed(user, [id])))) throw new AppError('NOT_FOUND');
    afterCommit(() => queueStoredFilesPurge(deps.queues, [user.id]));
  });
}

/** The scheduled purge: notes in the trash for 30 days are deleted. Idempotent. */
export async function purgeTrash(em: EntityManager, queues: Queues, now = clock.now()): Promise<number> {
  const deleted = await em.execute<{ user_id: string }[]>(
    'delete from note where trashed_at <= ? returning user_id',
    [new Date(now.getTime() - TRASH_RETENTION_MS)],
  );
  await queueStoredFilesPurge(queues, [...new Set(deleted.map((row) => Number(row.user_id)))]);
  return deleted.length;
}

export function addTag(deps: ChangeDeps, user: User, ids: string[], tag: string): Promise<number> {
  return changeNotes(deps, user, ids, async (tx) => {
    const result = await tx.execute<QueryResult>(
      `update "note" set "tags" = array_append("tags", ?), "updated_at" = ?
     where "user_id" = ? and "kind" = ? and "id" = any(?::text[]) and not ("tags" @> array[?]::text[])`,
      [tag, clock.now(), user.id, NoteKind.web, pgTextArray(ids), tag],
      'run',
    );
    return result.affectedRows;
  });
}

/**
 * One note's state, tags (exactly these) and folder at once (the Open API's update): one
 * transaction, so a webhook receiver hears one note.updated with the note as it ends up. As
 * with setFlow, a note in the trash keeps its state.
 */
export function updateNote(
  deps: ChangeDeps,
  user: User,
  id: string,
  changes: { flow?: number; tags?: string[]; folderId?: string | null },
): Promise<void> {
  return change(deps, user, async ({ tx }) => {
    if (!(await tx.count(Note, listed(user, [id])))) throw new AppError('NOT_FOUND');
    if (changes.folderId) await ownFolder(tx, user, changes.folderId);
    const now = clock.now();
    if (changes.flow !== undefined)
      await tx.nativeUpdate(
        Note,
        { ...listed(user, [id]), trashedAt: null },
        { flow: changes.flow, updatedAt: now },
      );
    if (changes.tags !== undefined) {
      const tags = pgTextArray([...new Set(changes.tags)]);
      await tx.execute(
        `update "note" set "tags" = ?::text[], "updated_at" = ?
         where "user_id" = ? and "kind" = ? and "id" = ? and "tags" is distinct from ?::text[]`,
        [tags, now, user.id, NoteKind.web, id, tags],
      );
    }
    if (changes.folderId !== undefined)
      await tx.nativeUpdate(Note, listed(user, [id]), { folder: changes.folderId, updatedAt: now });
    await recordNoteEvents(tx, user, 'note.updated', [id]);
  });
}

export function removeTag(deps: ChangeDeps, user: User, ids: string[], tag: string): Promise<number> {
  return changeNotes(deps, user, ids, async (tx) => {
    const result = await tx.execute<QueryResult>(
      `update "note" set "tags" = array_remove("tags", ?), "updated_at" = ?
     where "user_id" = ? and "kind" = ? and "id" = any(?::text[]) and "tags" @> array[?]::text[]`,
      [tag, clock.now(), user.id, NoteKind.web, pgTextArray(ids), tag],
      'run',
    );
    return result.affectedRows;
  });
}

/**
 * Renames a tag on notes and highlights. A rename into a tag that already exists merges the two,
 * so a rename is the merge of one tag: both are one statement per table, and one change.
 */
export function renameTag(deps: ChangeDeps, user: User, from: string, to: string): Promise<number> {
  return mergeTags(deps, user, [from], to);
}

/** Replaces tags `from` by `to` on notes and highlights in one transaction, leaving no duplicates. */
export async function mergeTags(deps: ChangeDeps, user: User, from: string[], to: string): Promise<number> {
  const sources = from.filter((t) => t !== to);
  if (!sources.length) return 0;
  return change(deps, user, async ({ tx: tem }) => {
    let changed = 0;
    for (const table of ['note', 'highlight']) {
      const result = await tem.execute<QueryResult>(
        `update "${table}" set "tags" = (
           select coalesce(array_agg(distinct t order by t), '{}') from unnest(array_cat(
             array(select x from unnest("tags") x where x <> all(?::text[])), array[?]::text[])) t)
         where "user_id" = ? and "tags" && ?::text[]`,
        [pgTextArray(sources), to, user.id, pgTextArray(sources)],
        'run',
      );
      changed += result.affectedRows;
    }
    await recordNoteEvents(tem, user, 'note.updated');
    await recordHighlightEvents(tem, user, 'highlight.updated');
    return changed;
  });
}

export function moveToFolder(
  deps: ChangeDeps,
  user: User,
  ids: string[],
  folderId: string | null,
): Promise<number> {
  return changeNotes(deps, user, ids, async (tx) => {
    if (folderId) await ownFolder(tx, user, folderId);
    return tx.nativeUpdate(Note, listed(user, ids), { folder: folderId, updatedAt: clock.now() });
  });
}
