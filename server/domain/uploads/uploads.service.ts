import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../../src/errors.ts';
import { newId } from '../../../src/rules/id.ts';
import { normalizeNoteUrl } from '../../../src/rules/note-url.ts';
import { parseUploadFile, UPLOAD_MAX_BYTES, type UploadPolicy } from '../../../src/schemas/extension.ts';
import { clock } from '../../clock.ts';
import { Note, Upload, type User } from '../../db/entities/index.ts';
import type { Queues } from '../../queue.ts';
import { type FileStorage, FileTooLargeError } from '../../storage/index.ts';
import { clipHtml, urlHash } from '../notes/clip.service.ts';
import { enforceLimits, LIMITS, type LimitStore } from '../rate-limit.ts';

/** How long an upload policy may be used. */
export const UPLOAD_POLICY_TTL_MS = 15 * 60_000;
/** Issued policies are forgotten this long after they expire. */
const UPLOAD_ROW_KEEP_MS = 24 * 60 * 60_000;

export interface UploadDeps extends LimitStore {
  storage: FileStorage;
  queues: Queues;
}

/**
 * An upload policy for the rendered HTML of the page at `url` (spec section 7): the key it may
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
  // Under the user's own directory, which goes with the account.
  const key = `${user.id}/uploads/${newId()}.txt`;
  const expiresAt = new Date(clock.now().getTime() + UPLOAD_POLICY_TTL_MS);
  await em.insert(Upload, { key, user: user.id, url, expiresAt, createdAt: clock.now() });
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
 * The policy's callback: parses the uploaded page into the note for the policy's URL (the file's
 * own header cannot move it to another page). The first completion claims the upload; a retry, or
 * a second call at once, answers with the same note. The stored file is removed once parsed: the
 * note keeps the HTML.
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
  let bytes: Buffer | null;
  try {
    bytes = await deps.storage.read(key, UPLOAD_MAX_BYTES);
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new AppError('PAYLOAD_TOO_LARGE');
    throw error;
  }
  if (!bytes) throw new AppError('NOT_FOUND', 'errors.uploadNotFound');
  const file = parseUploadFile(bytes.toString('utf8'));
  if (!file) throw new AppError('BAD_REQUEST', 'errors.uploadInvalid');
  const claimed = await em.nativeUpdate(
    Upload,
    { key, user: user.id, completedAt: null },
    { completedAt: clock.now() },
  );
  if (claimed === 0) {
    // Another call is parsing it: the note for the URL is the one it makes.
    const note = await em.findOne(Note, { user: user.id, urlHash: urlHash(upload.url) });
    if (!note) throw new AppError('CONFLICT', 'errors.uploadInProgress');
    return { note, created: false };
  }
  try {
    const result = await clipHtml(em, deps.queues, user, { url: upload.url, html: file.html });
    await em.nativeUpdate(Upload, { key }, { noteId: result.note.id });
    await deps.storage.remove(key);
    return result;
  } catch (error) {
    await em.nativeUpdate(Upload, { key }, { completedAt: null });
    throw error;
  }
}

/** Policies long expired, and their files if never completed (run with the session purge). */
export async function purgeSpentUploads(em: EntityManager, storage: FileStorage, now = clock.now()) {
  const before = new Date(now.getTime() - UPLOAD_ROW_KEEP_MS);
  const spent = await em.find(
    Upload,
    { expiresAt: { $lte: before } },
    { fields: ['key', 'completedAt'], limit: 1000 },
  );
  for (const upload of spent) if (!upload.completedAt) await storage.remove(upload.key);
  return em.nativeDelete(Upload, { key: { $in: spent.map((u) => u.key) } });
}
