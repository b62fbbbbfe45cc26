import { Page, PageContent } from '../../server/db/entities/index.ts';
import { urlHash } from '../../server/domain/pages/clip.service.ts';
import { indexPage } from '../../server/domain/search/search-index.ts';
import type { AppDeps } from '../../server/trpc/context.ts';
import { ClipStatus, Flow } from '../../src/enums.ts';
import { newNoteId } from '../../src/rules/note-id.ts';
import { waitFor } from './wait.ts';

/** Weeks before the test clock's now (TEST_NOW), so made pages are neither new nor in the future. */
let madeAt = Date.parse('2026-02-01T00:00:00Z');

/**
 * A clipped page (with its text, indexed for search) made straight in the database, so tests that
 * are not about clipping skip the worker. Each page is created a minute after the previous one.
 */
export async function makeClippedPage(
  deps: AppDeps,
  userId: number,
  fields: { title: string; text: string; tags?: string[]; flow?: number; excerpt?: string },
): Promise<Page> {
  const em = deps.orm.em.fork();
  const url = `https://pages.example/${newNoteId()}`;
  madeAt += 60_000;
  const page = em.create(Page, {
    id: newNoteId(),
    user: userId,
    url,
    urlHash: urlHash(url),
    title: fields.title,
    excerpt: fields.excerpt ?? '',
    clipStatus: ClipStatus.done,
    tags: fields.tags ?? [],
    flow: fields.flow ?? Flow.inbox,
    createdAt: new Date(madeAt),
    updatedAt: new Date(madeAt),
  });
  em.create(PageContent, { page, contentHtml: `<p>${fields.text}</p>`, text: fields.text });
  await em.flush();
  await indexPage(em, page.id, fields);
  return page;
}

/** Waits until the worker has finished with a page, done or failed, and answers its row. */
export function clipSettled(deps: AppDeps, pageId: string): Promise<Page> {
  return waitFor(
    async () => {
      const page = await deps.orm.em.fork().findOneOrFail(Page, { id: pageId });
      return page.clipStatus === ClipStatus.done || page.clipStatus === ClipStatus.failed ? page : undefined;
    },
    30_000,
    `page ${pageId} to settle`,
  );
}
