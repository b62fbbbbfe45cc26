import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import { newId } from '../../../src/rules/id.ts';
import type { FolderView } from '../../../src/schemas/folders.ts';
import { Folder, type User } from '../../db/entities/index.ts';

export function toFolderView(folder: Folder, noteCount = 0): FolderView {
  return {
    id: folder.id,
    name: folder.name,
    parentId: (folder.parent as Folder | null)?.id ?? null,
    noteCount,
    createdAt: folder.createdAt,
  };
}

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
    { id: string; name: string; parent_id: string | null; created_at: Date; note_count: string }[]
  >(
    `select f.id, f.name, f.parent_id, f.created_at,
       (select count(*) from note p where p.folder_id = f.id and p.trashed_at is null) as note_count
     from folder f where f.user_id = ? order by f.name`,
    [user.id],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    parentId: r.parent_id,
    createdAt: new Date(r.created_at),
    noteCount: Number(r.note_count),
  }));
}

export async function createFolder(
  em: EntityManager,
  user: User,
  input: { name: string; parentId?: string | null },
) {
  const parentId = input.parentId ?? null;
  if (parentId) await ownFolder(em, user, parentId);
  const folder = em.create(Folder, { id: newId(), user: user.id, parent: parentId, name: input.name });
  await flushFolderName(em);
  return folder;
}

export async function renameFolder(em: EntityManager, user: User, input: { id: string; name: string }) {
  const folder = await ownFolder(em, user, input.id);
  folder.name = input.name;
  await flushFolderName(em);
  return folder;
}

/** Deletes a folder and its subfolders; their notes stay, outside any folder. */
export async function deleteFolder(em: EntityManager, user: User, id: string): Promise<void> {
  await ownFolder(em, user, id);
  await em.nativeDelete(Folder, { id, user: user.id });
}
