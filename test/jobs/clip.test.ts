import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../jobs/workers.ts';
import { Note, NoteContent } from '../../server/db/entities/index.ts';
import { ClipStatus } from '../../src/enums.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { neverFinishingPage } from '../helpers/never-finishing-site.ts';
import { clipSettled } from '../helpers/notes.ts';
import { article, corpusIds, corpusPage, html, startSite, type TestSite } from '../helpers/site.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
let site: TestSite;
let workers: RunningWorkers;
const corpusId = corpusIds()[0] as string;
const PARAGRAPHS = [
  'Margin keeps what you read. This first paragraph is long enough to count as real article text for the parser.',
  'A second paragraph follows with more words, so that the extractor sees a proper body and not a teaser.',
  'The third paragraph closes the article and mentions highlights, notes and daily reviews in passing.',
];

beforeAll(async () => {
  site = await startSite({
    '/article': html(article('A calm article', PARAGRAPHS)),
    '/corpus': html(corpusPage(corpusId).html),
    '/gbk': html(
      iconv.encode(
        article('中文标题', ['这是一个用GBK编码的中文页面，用户可以在这里阅读和划线。'.repeat(4)]),
        'gbk',
      ),
      'text/html; charset=gbk',
    ),
    '/big5': html(
      iconv.encode(
        article('繁體標題', ['這是一個使用Big5編碼的繁體中文頁面，讀者可以劃線與註記。'.repeat(4)]),
        'big5',
      ),
      'text/html; charset=big5',
    ),
    '/sjis': html(
      iconv.encode(
        article('日本語の記事', [
          'これはシフトJISで書かれた日本語のページです。読者は線を引いてメモを残せます。'.repeat(4),
        ]),
        'shift_jis',
      ),
      'text/html; charset=shift_jis',
    ),
    '/euckr': html(
      iconv.encode(
        article('한국어 기사', [
          '이것은 EUC-KR로 인코딩된 한국어 페이지입니다. 독자는 밑줄을 긋고 메모할 수 있습니다.'.repeat(4),
        ]),
        'euc-kr',
      ),
      'text/html; charset=euc-kr',
    ),
    '/pdf': html('%PDF-1.4', 'application/pdf'),
    '/huge': (_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent >= 50) res.end();
        else res.once('drain', pump);
      };
      pump();
    },
    '/never-finishes': html(neverFinishingPage()),
  });
  // The default extraction limit (20 s): real pages must come through however loaded the machine.
  deps = await createTestDeps({ FETCH_ALLOW_TARGETS: site.target });
  workers = await startWorkers(deps);
});
afterAll(async () => {
  await workers.close();
  await deps.close();
  await site.close();
});

const settled = (noteId: string, on: TestDeps = deps) => clipSettled(on, noteId);

describe('clipping a URL', () => {
  test('queued (3), parsed by the worker, done: title, site, author, text and sanitised HTML', async () => {
    const { caller } = await signedInUser(deps);
    const { note, created } = await caller.notes.clip({
      url: `${site.origin}/article?utm_source=newsletter#top`,
    });
    expect(created).toBe(true);
    expect(note.clipStatus).toBe(ClipStatus.queued);
    expect(note.url).toBe(`${site.origin}/article`);
    await settled(note.id);
    const detail = await caller.notes.get({ id: note.id });
    expect(detail).toMatchObject({
      clipStatus: ClipStatus.done,
      title: 'A calm article',
      siteName: 'Test Site',
      author: 'Ada Lovelace',
    });
    expect(detail.text).toContain('Margin keeps what you read.');
    expect(detail.text).not.toContain('all rights reserved');
    expect(detail.contentHtml).not.toMatch(/<script|onerror=/i);
    expect(detail.wordCount).toBeGreaterThan(40);
  });

  test('saving the same URL again returns the existing note; at once, still one note', async () => {
    const { caller, user } = await signedInUser(deps);
    const url = `${site.origin}/article?ref=1`;
    const results = await Promise.all(Array.from({ length: 5 }, () => caller.notes.clip({ url })));
    expect(new Set(results.map((r) => r.note.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await deps.orm.em.fork().count(Note, { user: user.id })).toBe(1);
    const again = await caller.notes.clip({ url: `${site.origin}/article?ref=1#again` });
    expect(again).toMatchObject({ created: false, note: { id: results[0]?.note.id } });
  });

  test('a real page from the corpus: the article body comes through', async () => {
    const { caller } = await signedInUser(deps);
    const { note } = await caller.notes.clip({ url: `${site.origin}/corpus` });
    await settled(note.id);
    const detail = await caller.notes.get({ id: note.id });
    const firstSentence =
      corpusPage(corpusId)
        .articleBody.split(/(?<=[.!?])\s/)[0]
        ?.slice(0, 60) ?? '';
    expect(detail.clipStatus).toBe(ClipStatus.done);
    expect(detail.text.replace(/\s+/g, ' ')).toContain(firstSentence.replace(/\s+/g, ' '));
  });

  test.each([
    ['/gbk', '用GBK编码的中文页面'],
    ['/big5', '使用Big5編碼的繁體中文頁面'],
    ['/sjis', 'シフトJISで書かれた日本語のページ'],
    ['/euckr', 'EUC-KR로 인코딩된 한국어 페이지'],
  ])('legacy charset %s is decoded right', async (path, expected) => {
    const { caller } = await signedInUser(deps);
    const { note } = await caller.notes.clip({ url: `${site.origin}${path}` });
    await settled(note.id);
    const detail = await caller.notes.get({ id: note.id });
    expect(detail.text).toContain(expected);
    expect(detail.wordCount).toBeGreaterThan(20);
  });

  test('a 404 fails (status 2) with a reason and can be retried', async () => {
    const { caller } = await signedInUser(deps);
    const { note } = await caller.notes.clip({ url: `${site.origin}/missing` });
    const failed = await settled(note.id);
    expect(failed.clipStatus).toBe(ClipStatus.failed);
    expect(failed.clipError).toBe('fetch:http_status');
    const retried = await caller.notes.retryClip({ id: note.id });
    expect(retried.clipStatus).toBe(ClipStatus.queued);
    expect((await settled(note.id)).clipError).toBe('fetch:http_status');
    expect(site.hits.get('/missing')).toBe(2);
  });

  test('clipHtml parses the HTML the client sends and fetches nothing', async () => {
    const { caller } = await signedInUser(deps);
    const before = site.hits.get('/sent') ?? 0;
    const { note } = await caller.notes.clipHtml({
      url: `${site.origin}/sent`,
      html: article('Sent by the extension', PARAGRAPHS),
    });
    await settled(note.id);
    const detail = await caller.notes.get({ id: note.id });
    expect(detail).toMatchObject({ clipStatus: ClipStatus.done, title: 'Sent by the extension' });
    expect(site.hits.get('/sent') ?? 0).toBe(before);
    const content = await deps.orm.em
      .fork()
      .findOneOrFail(NoteContent, { note: note.id }, { populate: ['originalHtml'] });
    expect(content.originalHtml).toContain('Sent by the extension');
  });

  test('exports as plain text and as a Markdown article', async () => {
    const { caller } = await signedInUser(deps);
    const { note } = await caller.notes.clip({ url: `${site.origin}/article?export=1` });
    await settled(note.id);
    const text = await caller.notes.export({ id: note.id, format: 'text' });
    expect(text.content).toContain('A calm article');
    expect(text.content).toContain('Margin keeps what you read.');
    const markdown = await caller.notes.export({ id: note.id, format: 'markdown' });
    expect(markdown.filename).toBe('A calm article.md');
    expect(markdown.content).toMatch(/^# A calm article/);
    expect(markdown.content).toContain(`Source: <${site.origin}/article?export=1>`);
  });

  test("another user's note ids are refused on every procedure; bad input changes nothing", async () => {
    const owner = await signedInUser(deps);
    const other = await signedInUser(deps);
    const { note } = await owner.caller.notes.clip({ url: `${site.origin}/article?private=1` });
    await expect(other.caller.notes.get({ id: note.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(other.caller.notes.retryClip({ id: note.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(other.caller.notes.export({ id: note.id, format: 'text' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await other.caller.notes.list({ limit: 50 })).items).toEqual([]);
    await expect(other.caller.notes.clip({ url: 'javascript:alert(1)' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(other.caller.notes.clip({ url: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await deps.orm.em.fork().count(Note, { user: other.user.id })).toBe(0);
  });

  test('the note list is newest first with a cursor', async () => {
    const { caller } = await signedInUser(deps);
    for (let i = 0; i < 5; i++)
      await caller.notes.clipHtml({
        url: `${site.origin}/list-${i}`,
        html: article(`Item ${i}`, PARAGRAPHS),
      });
    const first = await caller.notes.list({ limit: 2 });
    const second = await caller.notes.list({ limit: 2, cursor: first.nextCursor });
    const third = await caller.notes.list({ limit: 2, cursor: second.nextCursor });
    const urls = [...first.items, ...second.items, ...third.items].map((p) => p.url.split('/').at(-1));
    expect(urls).toEqual(['list-4', 'list-3', 'list-2', 'list-1', 'list-0']);
    expect(third.nextCursor).toBeNull();
  });
});

describe('under a 2 s extraction limit', () => {
  // A deployment of its own (database, queues, workers) whose limit suits a page that never
  // finishes: far beyond what a healthy page needs on a loaded machine, short enough to wait for.
  let limited: TestDeps;
  let limitedWorkers: RunningWorkers;
  beforeAll(async () => {
    limited = await createTestDeps({ FETCH_ALLOW_TARGETS: site.target, EXTRACT_TIMEOUT_MS: '2000' });
    limitedWorkers = await startWorkers(limited);
  });
  afterAll(async () => {
    await limitedWorkers?.close();
    await limited?.close();
  });

  test('disallowed content, a private address, a 50 MB page and a page whose extraction never finishes all end in status 2', async () => {
    const { caller } = await signedInUser(limited);
    const urls = {
      pdf: `${site.origin}/pdf`,
      private: 'http://10.0.0.1/internal',
      huge: `${site.origin}/huge`,
      endless: `${site.origin}/never-finishes`,
    };
    const notes = Object.fromEntries(
      await Promise.all(
        Object.entries(urls).map(
          async ([k, url]) => [k, (await caller.notes.clip({ url })).note.id] as const,
        ),
      ),
    );
    const healthy = (await caller.notes.clip({ url: `${site.origin}/article?healthy=1` })).note.id;
    const reasons = Object.fromEntries(
      await Promise.all(
        Object.entries(notes).map(async ([k, id]) => [k, (await settled(id, limited)).clipError] as const),
      ),
    );
    expect(reasons).toEqual({
      pdf: 'fetch:content_type',
      private: 'fetch:blocked_address',
      huge: 'fetch:too_large',
      endless: 'extract:timeout',
    });
    expect((await settled(healthy, limited)).clipStatus).toBe(ClipStatus.done);
  });
});
