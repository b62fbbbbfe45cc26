import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ClipStatus } from '../../../src/enums.ts';
import { AppError } from '../../../src/errors.ts';
import { jobIds } from '../../../src/jobs.ts';
import { newNoteId } from '../../../src/rules/note-id.ts';
import { normalizePageUrl } from '../../../src/rules/page-url.ts';
import { toStorableText } from '../../../src/rules/text.ts';
import { clock } from '../../clock.ts';
import { Page, PageContent, type User } from '../../db/entities/index.ts';
import type { Queues } from '../../queue.ts';

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
 * Finds or creates the user's page for a URL. Creation is one INSERT … ON CONFLICT DO NOTHING
 * on (user, url hash), so two saves of the same URL at once still make one page.
 */
async function findOrCreatePage(em: EntityManager, user: User, rawUrl: string, source: 'url' | 'html') {
  const url = normalizePageUrl(rawUrl);
  if (!url) throw new AppError('BAD_REQUEST', 'errors.urlInvalid');
  const hash = urlHash(url);
  const now = clock.now();
  const inserted = await em
    .createQueryBuilder(Page)
    .insert({
      id: newNoteId(),
      user: user.id,
      url,
      urlHash: hash,
      title: titleFromUrl(url),
      source,
      clipStatus: ClipStatus.queued,
      clipAttempts: 1,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict(['user', 'urlHash'])
    .ignore()
    .execute('run');
  const page = await em.findOneOrFail(Page, { user: user.id, urlHash: hash });
  return { page, created: inserted.affectedRows === 1 };
}

export async function enqueueClip(queues: Queues, page: Page): Promise<void> {
  await queues.clip.add('clip', { pageId: page.id }, { jobId: jobIds.clip(page.id, page.clipAttempts) });
}

/**
 * Saves a URL: the worker fetches and parses it. Saving it again returns the existing page,
 * and a page whose clip failed is queued again (`retried`), as the user plainly wants it.
 */
export async function clipUrl(em: EntityManager, queues: Queues, user: User, rawUrl: string) {
  const { page, created } = await findOrCreatePage(em, user, rawUrl, 'url');
  if (created) await enqueueClip(queues, page);
  const retried = !created && (await requeueFailedClip(em, queues, page));
  return { page, created, retried };
}

/**
 * Saves a page whose HTML the client sends (extension, bookmarklet). Nothing is fetched; the
 * same parser runs. A page saved again is re-parsed from the newer HTML. The page, its HTML
 * and its new state are one transaction: a write that fails leaves no page (or the old one)
 * behind, never a queued page without its HTML. The job is queued after the commit, so the
 * worker always finds what it is asked to parse.
 */
export async function savePageHtml(
  em: EntityManager,
  queues: Queues,
  user: User,
  input: { url: string; html: string },
) {
  const { page, created } = await em.transactional(async (tem) => {
    const found = await findOrCreatePage(tem, user, input.url, 'html');
    await tem.upsert(PageContent, { page: found.page.id, originalHtml: input.html, updatedAt: clock.now() });
    if (!found.created) {
      found.page.source = 'html';
      found.page.clipStatus = ClipStatus.queued;
      found.page.clipError = null;
      found.page.clipAttempts += 1;
      await tem.flush();
    }
    return found;
  });
  await enqueueClip(queues, page);
  return { page, created };
}

/** A failed clip can be tried again by the user. */
export async function retryClip(em: EntityManager, queues: Queues, user: User, id: string): Promise<Page> {
  const page = await em.findOne(Page, { id, user: user.id });
  if (!page) throw new AppError('NOT_FOUND');
  await requeueFailedClip(em, queues, page);
  return page;
}

/**
 * Queues a failed clip again and answers whether it did. One conditional UPDATE, so of two
 * retries at once only one moves the page on (and enqueues its next attempt).
 */
async function requeueFailedClip(em: EntityManager, queues: Queues, page: Page): Promise<boolean> {
  const rows = await em.execute<{ clip_attempts: number }[]>(
    `update "page" set "clip_status" = ?, "clip_error" = null, "clip_attempts" = "clip_attempts" + 1,
       "updated_at" = ?
     where "id" = ? and "clip_status" = ? returning "clip_attempts"`,
    [ClipStatus.queued, clock.now(), page.id, ClipStatus.failed],
  );
  const [row] = rows;
  if (!row) return false;
  await em.refresh(page);
  await enqueueClip(queues, page);
  return true;
}
