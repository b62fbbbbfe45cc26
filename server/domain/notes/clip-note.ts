import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClipJob } from '../../../src/jobs.ts';
import { toStorableText } from '../../../src/rules/text.ts';
import { cleanTitle } from '../../../src/rules/title.ts';
import { clock } from '../../clock.ts';
import type { AppConfig } from '../../config.ts';
import { Note, NoteContent } from '../../db/entities/index.ts';
import { FetchRefusedError, guardedFetch, PAGE_CONTENT_TYPES } from '../../net/guarded-fetch.ts';
import type { Queues } from '../../queue.ts';
import { change } from '../changes.ts';
import { decodeHtml } from '../clip/decode.ts';
import { ExtractionFailedError, type ExtractionPool } from '../clip/extract-in-worker.ts';
import { reanchorNote } from '../highlights/highlights.service.ts';
import { queueImageStoring } from '../images/stored-images.ts';
import { indexNote } from '../search/search-index.ts';
import { finishClip, startClip } from './clip-state.ts';

export const CLIP_FETCH_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 20_000,
  idleTimeoutMs: 10_000,
  maxRedirects: 5,
};
export const CLIP_USER_AGENT = 'Mozilla/5.0 (compatible; MarginClipper/1.0; +https://github.com/margin)';

/** A failure not worth retrying (the note will not change its mind), with a reason code. */
export class PermanentClipError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

const TRANSIENT_FETCH_REASONS = new Set(['dns', 'connection', 'timeout']);

export interface ClipEnvironment {
  pool: ExtractionPool;
  allowedTargets: readonly string[];
  /** Where the finished clip's image job goes. */
  queues: Queues;
  /** What the finished clip's change needs besides (server/domain/changes.ts). */
  config: AppConfig;
}

async function fetchPage(url: string, env: ClipEnvironment): Promise<string> {
  try {
    const response = await guardedFetch(url, {
      ...CLIP_FETCH_LIMITS,
      allowedContentTypes: PAGE_CONTENT_TYPES,
      allowedTargets: env.allowedTargets,
      userAgent: CLIP_USER_AGENT,
    });
    // A hostile or broken page may carry NUL, which PostgreSQL cannot store: it is kept as U+FFFD.
    return toStorableText(decodeHtml(response.body, response.headers['content-type'] ?? null));
  } catch (error) {
    if (!(error instanceof FetchRefusedError)) throw error;
    const serverError = error.reason === 'http_status' && (error.status ?? 0) >= 500;
    if (TRANSIENT_FETCH_REASONS.has(error.reason) || serverError) throw error;
    throw new PermanentClipError(`fetch:${error.reason}`);
  }
}

/**
 * The HTML the client sent. A note the client sent is never fetched: one without its HTML
 * (half-saved before saving was one transaction) fails, and saving it again brings the HTML.
 */
async function sentHtml(em: EntityManager, noteId: string): Promise<string> {
  const stored = await em.findOne(NoteContent, { note: noteId }, { populate: ['originalHtml'] });
  if (!stored?.originalHtml) throw new PermanentClipError('stale');
  return stored.originalHtml;
}

/**
 * Clips one note for one attempt: status 4 while working, fetch (unless the client sent the HTML),
 * extract and sanitise off the event loop, store, done. Idempotent: running it again rewrites the
 * same rows. A job another attempt has overtaken (the note saved again or swept meanwhile), or
 * one whose attempt already ended, does nothing: 'superseded'.
 */
export async function clipNote(
  em: EntityManager,
  job: ClipJob,
  env: ClipEnvironment,
): Promise<'done' | 'gone' | 'superseded'> {
  const note = await em.findOne(Note, { id: job.noteId });
  if (!note) return 'gone';
  if (!(await startClip(em, job))) return 'superseded';

  const html = note.source === 'html' ? await sentHtml(em, note.id) : await fetchPage(note.url, env);

  let article: Awaited<ReturnType<ExtractionPool['extract']>>;
  try {
    article = await env.pool.extract(html, note.url);
  } catch (error) {
    if (error instanceof ExtractionFailedError) throw new PermanentClipError(`extract:${error.reason}`);
    throw error;
  }
  if (!article.text.trim()) throw new PermanentClipError('extract:empty');

  const title = cleanTitle(article.title ?? '') || note.title;
  // A change of the user's note like any other: its push tools hear of the finished clip.
  const finished = await change(
    { em, queues: env.queues, config: env.config },
    note.user,
    async ({ tx: tem }) => {
      // First, so the result is stored only by the attempt that still owns the note (and the row
      // is locked against a save arriving meanwhile).
      if (!(await finishClip(tem, job))) return false;
      await reanchorNote(tem, note.id, article.text);
      await indexNote(tem, note.id, { ...article, title });
      await tem.upsert(NoteContent, {
        note: note.id,
        originalHtml: html,
        contentHtml: article.contentHtml,
        text: article.text,
        updatedAt: clock.now(),
      });
      await tem.nativeUpdate(
        Note,
        { id: note.id },
        {
          title,
          siteName: article.siteName?.slice(0, 255) ?? null,
          author: article.author?.slice(0, 255) ?? null,
          publishedAt: article.publishedAt,
          leadImageUrl: article.leadImageUrl,
          excerpt: article.excerpt,
          lang: article.lang?.slice(0, 16) ?? null,
          wordCount: article.wordCount,
        },
      );
      return true;
    },
  );
  if (!finished) return 'superseded';
  // If this enqueue is lost, the reader queues the same job when it finds the images unstored.
  await queueImageStoring(env.queues, note.id, job.attempt);
  return 'done';
}
