import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { NoteContent } from '../../server/db/entities/index.ts';
import { enqueueClip } from '../../server/domain/notes/clip.service.ts';
import { ClipStatus } from '../../src/enums.ts';
import { isStorableText } from '../../src/rules/text.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { clipSettled, makeQueuedNote } from '../helpers/notes.ts';
import { html, startSite, type TestSite } from '../helpers/site.ts';
import { signedInUser } from '../helpers/users.ts';

/**
 * Pages are not ours to trust: NUL bytes in the HTML, \u0000 and lone surrogates in JSON-LD,
 * a date before PostgreSQL's calendar. None of it may fail the clip with a database error.
 */
const PARAGRAPH =
  'A hostile page still has an article, long enough for the parser to take it as the body of the page.';
const jsonLd = JSON.stringify({
  '@type': 'NewsArticle',
  headline: 'Headline\u0000with NUL',
  author: { name: 'Eve\u0000 \uD800Mallory' },
  publisher: { name: 'Bad\u0000Site' },
  datePublished: '-200000-01-01T00:00:00Z',
});
const HOSTILE = `<!doctype html><html lang="en\u0000"><head><meta charset="utf-8">
<title>Raw\u0000title</title>
<meta name="description" content="An excerpt\u0000 with NUL &#0; and an entity">
<script type="application/ld+json">${jsonLd}</script></head>
<body><article><h1>Raw\u0000heading</h1>
<p>${PARAGRAPH} It has a NUL\u0000here &#0; and there.</p>
<p>${PARAGRAPH} And a second paragraph to be sure.</p>
<p>${PARAGRAPH} And a third one, so the article is long enough.</p></article></body></html>`;

let deps: TestDeps;
let site: TestSite;
let workers: RunningWorkers;

beforeAll(async () => {
  site = await startSite({ '/hostile': html(HOSTILE), '/half-saved': html(HOSTILE) });
  deps = await createTestDeps({ FETCH_ALLOW_TARGETS: site.target });
  workers = await startWorkers(deps);
});
afterAll(async () => {
  await workers.close();
  await deps.close();
  await site.close();
});

describe('a fetched page with NUL and lone surrogates', () => {
  test('is clipped: the text is stored with U+FFFD in their place, and a date PostgreSQL cannot hold is dropped', async () => {
    const { caller } = await signedInUser(deps);
    const { note } = await caller.notes.clip({ url: `${site.origin}/hostile` });
    const settled = await clipSettled(deps, note.id);
    expect(settled.clipError).toBeNull();
    expect(settled.clipStatus).toBe(ClipStatus.done);
    expect(settled.publishedAt).toBeNull();

    const detail = await caller.notes.get({ id: note.id });
    for (const value of [
      detail.title,
      detail.author,
      detail.siteName,
      detail.excerpt,
      detail.lang,
      detail.text,
    ]) {
      expect(isStorableText(value ?? ''), JSON.stringify(value)).toBe(true);
    }
    expect(detail.text).toContain('It has a NUL');
    expect(detail.author).toContain('Mallory');

    const content = await deps.orm.em
      .fork()
      .findOneOrFail(NoteContent, { note: note.id }, { populate: ['originalHtml'] });
    expect(content.originalHtml).toContain('NUL\uFFFDhere');
    expect(isStorableText(content.originalHtml ?? '')).toBe(true);
  });
});

describe('a note the client sent whose HTML is missing', () => {
  test('is not fetched from its URL: it fails, and saving it again is the way on', async () => {
    // What a save that failed half-way left behind before saving was one transaction.
    const { user } = await signedInUser(deps);
    const note = await makeQueuedNote(deps, user.id, {
      url: `${site.origin}/half-saved`,
      title: 'half-saved',
      source: 'html',
      clipAttempts: 1,
    });
    await enqueueClip(deps.queues, note);
    const settled = await clipSettled(deps, note.id);
    expect(settled.clipStatus).toBe(ClipStatus.failed);
    expect(settled.clipError).toBe('stale');
    expect(site.hits.get('/half-saved') ?? 0).toBe(0);
  });
});
