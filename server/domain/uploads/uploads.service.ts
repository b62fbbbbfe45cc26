import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import { newId } from '../../../src/rules/id.ts';
import { normalizeNoteUrl } from '../../../src/rules/note-url.ts';
import { parseUploadFile, UPLOAD_MAX_BYTES, type UploadPolicy } from '../../../src/schemas/extension.ts';
import { clock } from '../../clock.ts';
import type { AppConfig } from '../../config.ts';
import { Note, Upload, type UploadState, type User } from '../../db/entities/index.ts';
import type { Queues } from '../../queue.ts';
import { type FileStorage, FileTooLargeError } from '../../storage/index.ts';
import { clipHtml } from '../notes/clip.service.ts';
import { noteByUrl } from '../notes/note-by-url.ts';
import { enforceLimits, LIMITS, type LimitStore } from '../rate-limit.ts';

/** How long an upload policy may be used. */
export const UPLOAD_POLICY_TTL_MS = 15 * 60_000;
/** Issued policies are forgotten this long after they expire (until then a completion retry gets its note). */
const UPLOAD_ROW_KEEP_MS = 24 * 60 * 60_000;
/** Where every upload is stored, in a folder per account: the purge lists it for files without a live key. */
export const UPLOADS_PREFIX = 'uploads/';
export const userUploadsPrefix = (userId: number) => `${UPLOADS_PREFIX}${userId}/`;
/** The states in which a key may hold a file. */
const HOLDING: UploadState[] = ['issued', 'uploaded'];

export interface UploadDeps extends LimitStore {
  storage: FileStorage;
  queues: Queues;
  config: AppConfig;
}

/**
 * An upload policy for the rendered HTML of the page at `url`: the key it may
 * write (under the user's own prefix), signed by the configured storage, and the callback that
 * turns the uploaded file into the note. Counted against the user's hourly uploads.
 */
export async function createUploadPolicy(
  em: EntityManager,
  deps: UploadDeps,
  user: User,
  input: { url: string; origin: string },
): Promise<UploadPolicy> {
  const url = normalizeNoteUrl(input.url);
  if (!url) throw new AppError('BAD_REQUEST', 'errors.urlInvalid');
  await enforceLimits(deps.redis, deps.redisPrefix, [
    { key: `uploads:hour:${user.id}`, ...LIMITS.uploads.perUserHour },
  ]);
  // Recorded before the form is signed, so no file can be stored under a key without an owner row.
  const key = `${userUploadsPrefix(user.id)}${newId()}.txt`;
  const expiresAt = new Date(clock.now().getTime() + UPLOAD_POLICY_TTL_MS);
  await em.insert(Upload, { key, user: user.id, url, expiresAt, state: 'issued', createdAt: clock.now() });
  const form = await deps.storage.uploadForm({
    key,
    maxBytes: UPLOAD_MAX_BYTES,
    expiresAt,
    origin: input.origin,
  });
  return {
    key,
    accessid: form.accessId,
    policy: form.policy,
    signature: form.signature,
    callback: `${input.origin}/openapi/v1/extension/uploads/complete`,
    host: form.host,
    fields: form.fields,
    maxBytes: UPLOAD_MAX_BYTES,
    expiresAt: Math.floor(expiresAt.getTime() / 1000),
  };
}

/**
 * The local store's upload target takes the key's one file: true once per key, while it is issued
 * and unexpired (at once, so of two posts with one policy one stores its file); false refuses it.
 */
export async function claimUploadKey(em: EntityManager, key: string): Promise<boolean> {
  const claimed = await em.nativeUpdate(
    Upload,
    { key, state: 'issued', expiresAt: { $gt: clock.now() } },
    { state: 'uploaded' },
  );
  return claimed === 1;
}

/** Gives a claimed key back (its file could not be stored, or could not be read as a page). */
export async function releaseUploadKey(em: EntityManager, key: string): Promise<void> {
  await em.nativeUpdate(Upload, { key, state: 'uploaded' }, { state: 'issued' });
}

/**
 * The policy's callback: parses the uploaded page into the note for the policy's URL (the file's
 * own header cannot move it to another page). The first completion claims the upload; a retry, or
 * a second call at once, answers with the same note. The stored file is removed once parsed (the
 * note keeps the HTML) and the key is spent; a file that is no page is removed and the key may
 * take another until it expires.
 */
export async function completeUpload(
  em: EntityManager,
  deps: UploadDeps,
  user: User,
  key: string,
): Promise<{ note: Note; created: boolean }> {
  const upload = await em.findOne(Upload, { key, user: user.id });
  if (!upload) throw new AppError('NOT_FOUND', 'errors.uploadNotFound');
  if (upload.noteId)
    return { note: await em.findOneOrFail(Note, { id: upload.noteId, user: user.id }), created: false };
  if (upload.state === 'spent') throw new AppError('NOT_FOUND', 'errors.uploadNotFound');
  let bytes: Buffer | null;
  try {
    bytes = await deps.storage.read(key, UPLOAD_MAX_BYTES);
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new AppError('PAYLOAD_TOO_LARGE');
    throw error;
  }
  if (!bytes) throw new AppError('NOT_FOUND', 'errors.uploadNotFound');
  const file = parseUploadFile(bytes.toString('utf8'));
  if (!file) {
    await deps.storage.remove(key);
    await releaseUploadKey(em, key);
    throw new AppError('BAD_REQUEST', 'errors.uploadInvalid');
  }
  const claimed = await em.nativeUpdate(
    Upload,
    { key, user: user.id, completedAt: null },
    { completedAt: clock.now() },
  );
  if (claimed === 0) {
    // Another call is parsing it: the note for the URL is the one it makes.
    const note = await noteByUrl(em, user, upload.url);
    if (!note) throw new AppError('CONFLICT', 'errors.uploadInProgress');
    return { note, created: false };
  }
  try {
    const result = await clipHtml({ em, queues: deps.queues, config: deps.config }, user, {
      url: upload.url,
      html: file.html,
    });
    await em.nativeUpdate(Upload, { key }, { noteId: result.note.id, state: 'spent' });
    await deps.storage.remove(key);
    return result;
  } catch (error) {
    await em.nativeUpdate(Upload, { key }, { completedAt: null });
    throw error;
  }
}

/**
 * Run with the session purge. Every stored byte keeps an owner row: the files of expired keys are
 * removed (their keys spent), then every file under UPLOADS_PREFIX whose key is spent or has no
 * row (a bucket takes a post after completion, or after Margin's clock says the key expired);
 * rows are forgotten a day after they expire.
 */
export async function purgeSpentUploads(em: EntityManager, storage: FileStorage, now = clock.now()) {
  const expired = await em.find(
    Upload,
    { expiresAt: { $lte: now }, state: { $in: HOLDING } },
    { fields: ['key'], limit: 1000 },
  );
  for (const upload of expired) await storage.remove(upload.key);
  await em.nativeUpdate(Upload, { key: { $in: expired.map((u) => u.key) } }, { state: 'spent' });

  let orphans = 0;
  for await (const keys of storage.list(UPLOADS_PREFIX)) {
    const held = await em.find(Upload, { key: { $in: keys }, state: { $in: HOLDING } }, { fields: ['key'] });
    const owned = new Set(held.map((upload) => upload.key));
    for (const key of keys.filter((k) => !owned.has(k))) {
      await storage.remove(key);
      orphans++;
    }
  }
  const forgotten = await em.nativeDelete(Upload, {
    expiresAt: { $lte: new Date(now.getTime() - UPLOAD_ROW_KEEP_MS) },
  });
  return { expired: expired.length, orphans, forgotten };
}
