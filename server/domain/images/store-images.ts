import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ClipStatus } from '../../../src/enums.ts';
import type { StoreImagesJob } from '../../../src/jobs.ts';
import { clock } from '../../clock.ts';
import { pgTextArray } from '../../db/pg-array.ts';
import {
  FetchRefusedError,
  guardedFetch,
  type HostLookup,
  IMAGE_CONTENT_TYPES,
} from '../../net/guarded-fetch.ts';
import type { FileStorage } from '../../storage/index.ts';
import { CLIP_USER_AGENT } from '../notes/clip-note.ts';
import { articleImageSources } from './article-images.ts';
import { imageFacts } from './sniff.ts';
import { storedImageKey, storedImagePath } from './stored-images.ts';

/** What one note's images may take. */
export const IMAGE_LIMITS = {
  /** Images of a note stored at most (the lead image first, then in reading order). */
  maxImages: 100,
  maxBytes: 10 * 1024 * 1024,
  /** All of a note's stored images together. */
  maxNoteBytes: 50 * 1024 * 1024,
  timeoutMs: 20_000,
  idleTimeoutMs: 10_000,
  maxRedirects: 5,
  /** One run of the job; what is left then is tried again by the next attempt. */
  runMs: 120_000,
  /** Images fetched at once. */
  parallel: 4,
};

export interface ImageEnvironment {
  storage: FileStorage;
  allowedTargets: readonly string[];
  /** Replaces DNS (tests). */
  lookup?: HostLookup;
}

/** Failures worth another try soon: the site may answer next time. */
const TRANSIENT = new Set(['dns', 'connection', 'timeout', 'http_5xx']);
/** Refusals a later run looks at again: transient ones, and the limits (the content may have changed). */
const RECONSIDERED = new Set([...TRANSIENT, 'limit', 'budget']);

/** Thrown when images failed for reasons worth retrying; the job retries with backoff. */
export class ImagesIncompleteError extends Error {
  readonly failed: Record<string, string>;
  constructor(failed: Record<string, string>) {
    super(`images not stored yet: ${Object.values(failed).join(', ')}`);
    this.name = 'ImagesIncompleteError';
    this.failed = failed;
  }
}

export interface StoreImagesResult {
  stored: number;
  /** Already stored by an earlier run (nothing fetched or written again). */
  kept: number;
  /** Each refused address and why. */
  refused: Record<string, string>;
}

interface NoteRow {
  user_id: string;
  clip_status: number;
  clip_attempts: number;
  lead_image_url: string | null;
  content_html: string | null;
}

interface FileRow {
  source_url: string;
  key: string | null;
  hash: string | null;
  bytes: number | null;
  error: string | null;
}

interface RecordedFields {
  key?: string;
  content_type?: string;
  bytes?: number;
  width?: number;
  height?: number;
  hash?: string;
  error?: string;
}

type Fetched = { ok: true; body: Buffer } | { ok: false; reason: string };

async function fetchImage(url: string, env: ImageEnvironment, deadline: number): Promise<Fetched> {
  const left = deadline - performance.now();
  if (left <= 0) return { ok: false, reason: 'timeout' };
  try {
    const response = await guardedFetch(url, {
      maxBytes: IMAGE_LIMITS.maxBytes,
      timeoutMs: Math.min(IMAGE_LIMITS.timeoutMs, left),
      idleTimeoutMs: IMAGE_LIMITS.idleTimeoutMs,
      maxRedirects: IMAGE_LIMITS.maxRedirects,
      allowedContentTypes: IMAGE_CONTENT_TYPES,
      allowedTargets: env.allowedTargets,
      userAgent: CLIP_USER_AGENT,
      lookup: env.lookup,
    });
    return { ok: true, body: response.body };
  } catch (error) {
    if (!(error instanceof FetchRefusedError)) throw error;
    if (error.reason !== 'http_status') return { ok: false, reason: error.reason };
    return { ok: false, reason: (error.status ?? 0) >= 500 ? 'http_5xx' : `http_${error.status ?? 0}` };
  }
}

/** Runs `work` over `items`, `parallel` at a time. */
async function eachLimited<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(parallel, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  });
  await Promise.all(lanes);
}

class NoteGone extends Error {}

/**
 * Stores the images of a note's clip attempt: each image address of the article (and the lead
 * image) fetched through the guarded fetcher, checked by its bytes, measured, and written to the
 * store once per content hash, with a row saying what became of it. Refusals are kept as rows
 * (the reader shows those images' alt text); failures worth retrying throw ImagesIncompleteError
 * unless this is the last attempt, when they too are kept as refusals. Idempotent: what a row
 * already holds is not fetched again. A job another attempt overtook does nothing.
 */
export async function storeNoteImages(
  em: EntityManager,
  job: StoreImagesJob,
  env: ImageEnvironment,
  { lastAttempt }: { lastAttempt: boolean },
): Promise<StoreImagesResult | 'gone' | 'superseded'> {
  const [note] = await em.execute<NoteRow[]>(
    `select n.user_id, n.clip_status, n.clip_attempts, n.lead_image_url, c.content_html
     from note n left join note_content c on c.note_id = n.id where n.id = ?`,
    [job.noteId],
  );
  if (!note) return 'gone';
  if (note.clip_status !== ClipStatus.done || note.clip_attempts !== job.attempt) return 'superseded';
  const userId = Number(note.user_id);
  const lead = note.lead_image_url && /^https?:\/\//i.test(note.lead_image_url) ? note.lead_image_url : null;
  const sources = [...new Set([...(lead ? [lead] : []), ...articleImageSources(note.content_html ?? '')])];

  const rows = new Map<string, FileRow>();
  for (const row of await em.execute<FileRow[]>(
    'select source_url, key, hash, bytes, error from stored_file where note_id = ?',
    [job.noteId],
  ))
    rows.set(row.source_url, row);
  const byHash = new Map<string, string>();
  let noteBytes = 0;
  for (const row of rows.values()) {
    if (!row.hash || !row.key || byHash.has(row.hash)) continue;
    byHash.set(row.hash, row.key);
    if (sources.includes(row.source_url)) noteBytes += Number(row.bytes ?? 0);
  }

  const result: StoreImagesResult = { stored: 0, kept: 0, refused: {} };
  const retry: Record<string, string> = {};
  const record = async (source: string, fields: RecordedFields) => {
    await em
      .execute(
        `insert into stored_file (user_id, note_id, source_url, key, content_type, bytes, width, height, hash, error, created_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         on conflict (note_id, md5(source_url)) do update set key = excluded.key, content_type = excluded.content_type,
           bytes = excluded.bytes, width = excluded.width, height = excluded.height, hash = excluded.hash,
           error = excluded.error`,
        [
          userId,
          job.noteId,
          source,
          fields.key ?? null,
          fields.content_type ?? null,
          fields.bytes ?? null,
          fields.width ?? null,
          fields.height ?? null,
          fields.hash ?? null,
          fields.error ?? null,
          clock.now(),
        ],
      )
      .catch((error: unknown) => {
        // The note was deleted meanwhile (its id no longer satisfies the foreign key).
        if ((error as { code?: string }).code === '23503') throw new NoteGone();
        throw error;
      });
  };
  const refuse = async (source: string, reason: string) => {
    if (TRANSIENT.has(reason) && !lastAttempt) {
      retry[source] = reason;
      return;
    }
    result.refused[source] = reason;
    await record(source, { error: reason });
  };

  const deadline = performance.now() + IMAGE_LIMITS.runMs;
  const todo: string[] = [];
  for (const source of sources) {
    const row = rows.get(source);
    if (row?.key) result.kept++;
    else if (!row?.error || RECONSIDERED.has(row.error)) todo.push(source);
  }

  try {
    await eachLimited(todo, IMAGE_LIMITS.parallel, async (source) => {
      if (sources.indexOf(source) >= IMAGE_LIMITS.maxImages) return refuse(source, 'limit');
      const fetched = await fetchImage(source, env, deadline);
      if (!fetched.ok) return refuse(source, fetched.reason);
      const facts = imageFacts(fetched.body);
      if (!facts) return refuse(source, 'not_image');
      const hash = createHash('sha256').update(fetched.body).digest('hex');
      let key = byHash.get(hash);
      if (!key) {
        if (noteBytes + fetched.body.length > IMAGE_LIMITS.maxNoteBytes) return refuse(source, 'budget');
        noteBytes += fetched.body.length;
        key = storedImageKey(userId, job.noteId, hash, facts.type);
        byHash.set(hash, key);
        await env.storage.write(key, fetched.body, facts.type);
        result.stored++;
      } else result.kept++;
      await record(source, {
        key,
        content_type: facts.type,
        bytes: fetched.body.length,
        width: facts.width,
        height: facts.height,
        hash,
      });
    });
  } catch (error) {
    if (!(error instanceof NoteGone)) throw error;
    // Files written for it are removed with the note's other files (its rows went without a note).
    for (const key of byHash.values()) await env.storage.remove(key);
    return 'gone';
  }

  await finishNoteImages(em, job, sources, env.storage);
  if (Object.keys(retry).length) throw new ImagesIncompleteError(retry);
  return result;
}

/**
 * Points the note at its stored lead image, and lets go of the images of an earlier version of
 * its content (saved again with other HTML): their rows, and their files no row names any more.
 */
async function finishNoteImages(
  em: EntityManager,
  job: StoreImagesJob,
  sources: readonly string[],
  storage: FileStorage,
) {
  const stale = await em.transactional(async (tem) => {
    const [lead] = await tem.execute<{ hash: string; content_type: string }[]>(
      `select f.hash, f.content_type from note n join stored_file f
         on f.note_id = n.id and md5(f.source_url) = md5(n.lead_image_url) and f.source_url = n.lead_image_url
       where n.id = ? and f.hash is not null`,
      [job.noteId],
    );
    const image = lead
      ? storedImagePath(lead.hash, lead.content_type as Parameters<typeof storedImagePath>[1])
      : null;
    const [current] = await tem.execute<{ id: string }[]>(
      'update note set image = ? where id = ? and clip_attempts = ? returning id',
      [image, job.noteId, job.attempt],
    );
    if (!current) return [];
    const gone = await tem.execute<{ key: string | null }[]>(
      `delete from stored_file where note_id = ? and not (source_url = any(?::text[])) returning key`,
      [job.noteId, pgTextArray(sources)],
    );
    const keys = [...new Set(gone.map((r) => r.key).filter((k): k is string => k !== null))];
    if (!keys.length) return [];
    const named = await tem.execute<{ key: string }[]>(
      'select distinct key from stored_file where note_id = ? and key is not null',
      [job.noteId],
    );
    const kept = new Set(named.map((r) => r.key));
    return keys.filter((k) => !kept.has(k));
  });
  for (const key of stale) await storage.remove(key);
}
