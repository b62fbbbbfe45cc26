import type { EntityManager } from '@mikro-orm/postgresql';
import { ClipStatus } from '../../../src/enums.ts';
import { pgTextArray } from '../../db/pg-array.ts';
import { log } from '../../log.ts';
import { enqueue, type Queues } from '../../queue.ts';
import type { FileStorage } from '../../storage/index.ts';
import {
  articleImageSources,
  hasPendingImages,
  type ImageOutcome,
  readerArticleHtml,
} from './article-images.ts';
import { STORED_IMAGE_TYPES, type StoredImageType } from './sniff.ts';

/** Where Margin serves a stored image: named by its content, so its address never changes meaning. */
export function storedImagePath(hash: string, type: StoredImageType): string {
  return `/files/images/${hash}.${STORED_IMAGE_TYPES[type]}`;
}

/** The key of a note's stored image: under the owner's prefix (which goes with the account) and the note's. */
export function storedImageKey(userId: number, noteId: string, hash: string, type: StoredImageType): string {
  return `${userId}/images/${noteId}/${hash}.${STORED_IMAGE_TYPES[type]}`;
}

interface OutcomeRow {
  source_url: string;
  hash: string | null;
  content_type: string | null;
  width: number | null;
  height: number | null;
}

/** What became of each image address of a note (rows of the image job). */
export async function imageOutcomes(
  em: EntityManager,
  noteId: string,
): Promise<(source: string) => ImageOutcome> {
  const rows = await em.execute<OutcomeRow[]>(
    'select source_url, hash, content_type, width, height from stored_file where note_id = ?',
    [noteId],
  );
  const outcomes = new Map<string, ImageOutcome>();
  for (const row of rows) {
    const type = row.content_type as StoredImageType | null;
    outcomes.set(
      row.source_url,
      row.hash && type && type in STORED_IMAGE_TYPES
        ? { src: storedImagePath(row.hash, type), width: Number(row.width), height: Number(row.height) }
        : 'refused',
    );
  }
  return (source) => outcomes.get(source);
}

export interface ReaderArticle {
  contentHtml: string;
  /** Some images are still being stored: the reader asks again until they are. */
  imagesPending: boolean;
}

/**
 * The article as the reader shows it (server/domain/images/article-images.ts). A clipped note with
 * images nobody has stored yet (clipped before Margin stored images, or its job lost) gets its
 * image job queued here: one per clip attempt, so asking again adds nothing.
 */
export async function readerArticle(
  em: EntityManager,
  queues: Queues,
  note: { id: string; clipStatus: number; clipAttempts: number },
  contentHtml: string,
): Promise<ReaderArticle> {
  if (!contentHtml.includes('<')) return { contentHtml, imagesPending: false };
  const outcome = await imageOutcomes(em, note.id);
  const html = readerArticleHtml(contentHtml, outcome);
  const pending =
    note.clipStatus === ClipStatus.done && hasPendingImages(articleImageSources(contentHtml), outcome);
  if (pending) await queueImageStoring(queues, note.id, note.clipAttempts);
  return { contentHtml: html, imagesPending: pending };
}

/** Queues the image job of a clip attempt (a no-op when that job exists). */
export async function queueImageStoring(queues: Queues, noteId: string, attempt: number): Promise<void> {
  await enqueue(queues, 'storeImages', { noteId, attempt });
}

export interface ServedImage {
  key: string;
  contentType: StoredImageType;
  bytes: number;
  hash: string;
}

/** One of the user's stored images by its content hash (any of their notes that keeps it). */
export async function findStoredImage(
  em: EntityManager,
  userId: number,
  hash: string,
): Promise<ServedImage | null> {
  const [row] = await em.execute<{ key: string; content_type: string; bytes: number }[]>(
    `select key, content_type, bytes from stored_file
     where user_id = ? and hash = ? and key is not null and note_id is not null limit 1`,
    [userId, hash],
  );
  if (!row || !(row.content_type in STORED_IMAGE_TYPES)) return null;
  return { key: row.key, contentType: row.content_type as StoredImageType, bytes: Number(row.bytes), hash };
}

/** Where the user's stored copy of the image at `sourceUrl` is served, if Margin stored it. */
export async function storedImageOf(
  em: EntityManager,
  userId: number,
  sourceUrl: string,
): Promise<string | null> {
  const [row] = await em.execute<{ hash: string; content_type: string }[]>(
    `select hash, content_type from stored_file
     where user_id = ? and md5(source_url) = md5(?) and source_url = ? and hash is not null and note_id is not null
     limit 1`,
    [userId, sourceUrl, sourceUrl],
  );
  if (!row || !(row.content_type in STORED_IMAGE_TYPES)) return null;
  return storedImagePath(row.hash, row.content_type as StoredImageType);
}

/** After notes were deleted for good: their owners' stored files go (a debounced job per owner). */
export async function queueStoredFilesPurge(queues: Queues, userIds: readonly number[]): Promise<void> {
  for (const userId of userIds) await enqueue(queues, 'purgeStoredFiles', { userId });
}

/** How many rows of notes deleted for good one purge takes at most. */
const PURGE_BATCH = 1000;

/**
 * Removes the files of notes deleted for good (rows left without a note), then their rows; a
 * file another row still names (the same note cannot: its rows went together) stays. Of one user,
 * or of everyone (the hourly sweep). Idempotent: what is already gone is skipped.
 */
export async function purgeStoredFiles(
  em: EntityManager,
  storage: FileStorage,
  userId?: number,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const params: unknown[] = [];
    const ofUser = userId === undefined ? '' : 'and user_id = ?';
    if (userId !== undefined) params.push(userId);
    const rows = await em.execute<{ id: string; key: string | null }[]>(
      `select id, key from stored_file where note_id is null ${ofUser} order by id limit ${PURGE_BATCH}`,
      params,
    );
    if (!rows.length) return removed;
    const keys = [...new Set(rows.map((r) => r.key).filter((k): k is string => k !== null))];
    const named = keys.length
      ? await em.execute<{ key: string }[]>(
          'select distinct key from stored_file where key = any(?::text[]) and note_id is not null',
          [pgTextArray(keys)],
        )
      : [];
    const kept = new Set(named.map((r) => r.key));
    for (const key of keys) if (!kept.has(key)) await storage.remove(key);
    await em.execute('delete from stored_file where id = any(?::bigint[])', [
      pgTextArray(rows.map((r) => String(r.id))),
    ]);
    removed += rows.length;
    if (rows.length < PURGE_BATCH) {
      if (removed) log.info('stored files purged', { userId, rows: removed, files: keys.length - kept.size });
      return removed;
    }
  }
}
