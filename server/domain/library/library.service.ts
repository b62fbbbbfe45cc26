import {
  type EntityManager,
  type QueryResult,
  UniqueConstraintViolationException,
} from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import { newNoteId } from '../../../src/rules/note-id.ts';
import { clock } from '../../clock.ts';
import { Folder, Page, type User } from '../../db/entities/index.ts';
import { pgTextArray } from '../../db/pg-array.ts';

/**
 * Every bulk change is one statement scoped to the user: another user's ids change nothing.
 * When nothing changed and none of the ids is one of the user's pages, the answer is NOT_FOUND,
 * as for a single id; a selection with some pages gone (deleted on another device) still works.
 */
async function changedOrNotFound(em: EntityManager, user: User, ids: string[], changed: number) {
  if (changed > 0) return changed;
  if (!(await em.count(Page, { id: { $in: ids }, user: user.id }))) throw new AppError('NOT_FOUND');
  return 0;
}

export async function setFlow(em: EntityManager, user: User, ids: string[], flow: number): Promise<number> {
  const changed = await em.nativeUpdate(
    Page,
    { id: { $in: ids }, user: user.id, trashedAt: null },
    { flow, updatedAt: clock.now() },
  );
  return changedOrNotFound(em, user, ids, changed);
}

export async function trashPages(
  em: EntityManager,
  user: User,
  ids: string[],
  now = clock.now(),
): Promise<number> {
  const changed = await em.nativeUpdate(
    Page,
    { id: { $in: ids }, user: user.id, trashedAt: null },
    { trashedAt: now },
  );
  return changedOrNotFound(em, user, ids, changed);
}

export async function restorePages(em: EntityManager, user: User, ids: string[]): Promise<number> {
  const changed = await em.nativeUpdate(
    Page,
    { id: { $in: ids }, user: user.id, trashedAt: { $ne: null } },
    { trashedAt: null },
  );
  return changedOrNotFound(em, user, ids, changed);
}

/** Force-delete: only pages already in the trash; their content and notes go with them. */
export async function deleteForever(em: EntityManager, user: User, ids: string[]): Promise<number> {
  const changed = await em.nativeDelete(Page, { id: { $in: ids }, user: user.id, trashedAt: { $ne: null } });
  return changedOrNotFound(em, user, ids, changed);
}

export const TRASH_RETENTION_MS = 30 * 86_400_000;

/** The scheduled purge: pages in the trash for 30 days are deleted. Idempotent. */
export async function purgeTrash(em: EntityManager, now = clock.now()): Promise<number> {
  return em.nativeDelete(Page, { trashedAt: { $lte: new Date(now.getTime() - TRASH_RETENTION_MS) } });
}

export async function addTag(em: EntityManager, user: User, ids: string[], tag: string): Promise<number> {
  const result = await em.execute<QueryResult>(
    `update "page" set "tags" = array_append("tags", ?), "updated_at" = ?
     where "user_id" = ? and "id" = any(?::text[]) and not ("tags" @> array[?]::text[])`,
    [tag, clock.now(), user.id, pgTextArray(ids), tag],
    'run',
  );
  return changedOrNotFound(em, user, ids, result.affectedRows);
}

export async function removeTag(em: EntityManager, user: User, ids: string[], tag: string): Promise<number> {
  const result = await em.execute<QueryResult>(
    `update "page" set "tags" = array_remove("tags", ?), "updated_at" = ?
     where "user_id" = ? and "id" = any(?::text[]) and "tags" @> array[?]::text[]`,
    [tag, clock.now(), user.id, pgTextArray(ids), tag],
    'run',
  );
  return changedOrNotFound(em, user, ids, result.affectedRows);
}

/**
 * Renames tags on pages and highlights in one transaction. Renaming into a tag that exists
 * merges them (no duplicates are left).
 */
export async function mergeTags(em: EntityManager, user: User, from: string[], to: string): Promise<number> {
  const sources = from.filter((t) => t !== to);
  if (!sources.length) return 0;
  return em.transactional(async (tem) => {
    let changed = 0;
    for (const table of ['page', 'note']) {
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
    return changed;
  });
}

/** Tags with how many pages and highlights carry each. */
export async function tagCounts(em: EntityManager, user: User) {
  const rows = await em.execute<{ tag: string; pages: string; highlights: string }[]>(
    `select tag, sum(pages)::int as pages, sum(highlights)::int as highlights from (
       select unnest(tags) as tag, 1 as pages, 0 as highlights from page where user_id = ? and trashed_at is null
       union all
       select unnest(tags), 0, 1 from note where user_id = ?
     ) t group by tag order by tag`,
    [user.id, user.id],
  );
  return rows.map((r) => ({ tag: r.tag, pages: Number(r.pages), highlights: Number(r.highlights) }));
}

// Folders -----------------------------------------------------------------------------------

export async function ownFolder(em: EntityManager, user: User, id: string): Promise<Folder> {
  const folder = await em.findOne(Folder, { id, user: user.id });
  if (!folder) throw new AppError('NOT_FOUND');
  return folder;
}

/** Saves a folder's new name; the unique index, not a read before, decides a clash (no race). */
async function flushFolderName(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException)
      throw new AppError('CONFLICT', 'errors.folderExists');
    throw error;
  }
}

export async function listFolders(em: EntityManager, user: User) {
  const rows = await em.execute<
    { id: string; name: string; parent_id: string | null; created_at: Date; page_count: string }[]
  >(
    `select f.id, f.name, f.parent_id, f.created_at,
       (select count(*) from page p where p.folder_id = f.id and p.trashed_at is null) as page_count
     from folder f where f.user_id = ? order by f.name`,
    [user.id],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    parentId: r.parent_id,
    createdAt: new Date(r.created_at),
    pageCount: Number(r.page_count),
  }));
}

export async function createFolder(
  em: EntityManager,
  user: User,
  input: { name: string; parentId?: string | null },
) {
  const parentId = input.parentId ?? null;
  if (parentId) await ownFolder(em, user, parentId);
  const folder = em.create(Folder, { id: newNoteId(), user: user.id, parent: parentId, name: input.name });
  await flushFolderName(em);
  return folder;
}

export async function renameFolder(em: EntityManager, user: User, input: { id: string; name: string }) {
  const folder = await ownFolder(em, user, input.id);
  folder.name = input.name;
  await flushFolderName(em);
  return folder;
}

/** Deletes a folder and its subfolders; their pages stay, outside any folder. */
export async function deleteFolder(em: EntityManager, user: User, id: string): Promise<void> {
  await ownFolder(em, user, id);
  await em.nativeDelete(Folder, { id, user: user.id });
}

export async function moveToFolder(
  em: EntityManager,
  user: User,
  ids: string[],
  folderId: string | null,
): Promise<number> {
  if (folderId) await ownFolder(em, user, folderId);
  const changed = await em.nativeUpdate(
    Page,
    { id: { $in: ids }, user: user.id },
    { folder: folderId, updatedAt: clock.now() },
  );
  return changedOrNotFound(em, user, ids, changed);
}
