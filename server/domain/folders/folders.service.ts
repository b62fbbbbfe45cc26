import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import { newId } from '../../../src/rules/id.ts';
import type { FolderView } from '../../../src/schemas/folders.ts';
import { Folder, type User } from '../../db/entities/index.ts';
import { asDate, type FieldReader, rowReader } from '../../db/row.ts';
import { type ChangeDeps, change } from '../changes.ts';
import { recordNoteEvents } from '../webhooks/events.ts';

/** The one mapping to the client's folder, whatever it was read from. */
function folderView(read: FieldReader<keyof FolderView>): FolderView {
  return {
    id: String(read('id')),
    name: String(read('name')),
    parentId: (read('parentId') as string | null | undefined) ?? null,
    noteCount: Number(read('noteCount') ?? 0),
    createdAt: asDate(read('createdAt')),
  };
}

/** A folder just created or renamed; its notes are not counted here (0), only the list counts them. */
function toFolderView(folder: Folder): FolderView {
  return folderView((field) =>
    field === 'parentId'
      ? ((folder.parent as Folder | null)?.id ?? null)
      : field === 'noteCount'
        ? 0
        : folder[field],
  );
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

export async function listFolders(em: EntityManager, user: User): Promise<FolderView[]> {
  const rows = await em.execute<Record<string, unknown>[]>(
    `select f.id, f.name, f.parent_id, f.created_at,
       (select count(*) from note n where n.folder_id = f.id and n.trashed_at is null) as note_count
     from folder f where f.user_id = ? order by f.name`,
    [user.id],
  );
  return rows.map((row) => folderView(rowReader(row)));
}

export async function createFolder(
  em: EntityManager,
  user: User,
  input: { name: string; parentId?: string | null },
): Promise<FolderView> {
  const parentId = input.parentId ?? null;
  if (parentId) await ownFolder(em, user, parentId);
  const folder = em.create(Folder, { id: newId(), user: user.id, parent: parentId, name: input.name });
  await flushFolderName(em);
  return toFolderView(folder);
}

export async function renameFolder(
  em: EntityManager,
  user: User,
  input: { id: string; name: string },
): Promise<FolderView> {
  const folder = await ownFolder(em, user, input.id);
  folder.name = input.name;
  await flushFolderName(em);
  return toFolderView(folder);
}

/**
 * Deletes a folder and its subfolders; their notes stay, outside any folder (the database sets
 * their folder to null): a change of those notes, with a note.updated for each.
 */
export async function deleteFolder(deps: ChangeDeps, user: User, id: string): Promise<void> {
  await change(deps, user, async ({ tx }) => {
    await ownFolder(tx, user, id);
    await tx.nativeDelete(Folder, { id, user: user.id });
    await recordNoteEvents(tx, user, 'note.updated');
  });
}
