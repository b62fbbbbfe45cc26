import { afterAll, describe, expect, it } from 'vitest';
import {
  ExtractionFailedError,
  ExtractionPool,
  ExtractionTimeoutError,
} from '../../server/domain/clip/extract-in-worker.ts';
import { neverFinishingPage } from '../helpers/never-finishing-site.ts';

const SMALL_PAGE = `<html><head><meta property="og:title" content="Small"></head><body><article>${'<p>A short and ordinary paragraph about gardens, soil and the weather this spring.</p>'.repeat(6)}</article></body></html>`;
const pageOf = (paragraphs: number): string =>
  `<html><body><article>${'<p>lorem ipsum dolor sit amet <b>x</b></p>'.repeat(paragraphs)}</article></body></html>`;

describe('ExtractionPool', () => {
  const pools: ExtractionPool[] = [];
  const pool = (options: ConstructorParameters<typeof ExtractionPool>[0]): ExtractionPool => {
    const created = new ExtractionPool(options);
    pools.push(created);
    return created;
  };
  afterAll(() => Promise.all(pools.map((created) => created.close())));
  // One thread's start (its modules loaded) is most of a small page's time: the tests that need
  // no setting of their own share this pool.
  let plain: ExtractionPool | undefined;
  const plainPool = () => {
    plain ??= pool({ size: 1 });
    return plain;
  };

  it('extracts a page in a worker thread, dates included', async () => {
    const article = await plainPool().extract(SMALL_PAGE, 'https://example.com/a');
    expect(article.title).toBe('Small');
    expect(article.text).toContain('ordinary paragraph about gardens');
    expect(article.publishedAt).toBeNull();
  });

  it('sanitises the article body in the worker: no script, handler or frame, links open apart', async () => {
    const paragraph = (extra = '') =>
      `<p>A paragraph about rivers and the towns along them, long enough to keep.${extra}</p>`;
    const hostile = `<html><body><article>${paragraph().repeat(5)}${paragraph(' Read <a href="https://example.org/more" onclick="steal()">more</a> <img src="/x.png" onerror="steal()">')}<script>steal()</script><iframe src="https://evil.example/"></iframe></article></body></html>`;
    const article = await plainPool().extract(hostile, 'https://example.com/rivers');
    expect(article.contentHtml).toContain('rivers and the towns');
    expect(article.contentHtml).not.toMatch(/<script|onclick|onerror|<iframe|steal/);
    expect(article.contentHtml).toContain('rel="noopener noreferrer nofollow"');
    expect(article.contentHtml).toContain('src="https://example.com/x.png"');
  });

  it('terminates a page that runs past the time limit and keeps serving the next one', async () => {
    // The limit is far beyond what a healthy page needs, even on a loaded machine; the endless
    // page never finishes, so only the limit can end it.
    const limited = pool({ size: 1, timeoutMs: 2_000 });
    const endless = limited.extract(neverFinishingPage(), 'https://example.com/endless');
    // Queued behind the endless page on the pool's only worker.
    const queued = limited.extract(SMALL_PAGE, 'https://example.com/queued');
    await expect(endless).rejects.toBeInstanceOf(ExtractionTimeoutError);
    await expect(endless).rejects.toMatchObject({ reason: 'timeout', timeoutMs: 2_000 });
    // The same pool replaces its terminated worker and serves what waited, and what comes next.
    expect((await queued).title).toBe('Small');
    const next = await limited.extract(SMALL_PAGE, 'https://example.com/next');
    expect(next.wordCount).toBeGreaterThan(50);
    expect((await limited.extract('<p>x</p>', 'https://example.com/c')).text).toBe('x');
  });

  it('rejects a page that exhausts the heap without crashing the process', async () => {
    const capped = pool({ size: 1, maxHeapMb: 64, timeoutMs: 30_000, maxHtmlLength: 50_000_000 });
    const huge = capped.extract(pageOf(300_000), 'https://example.com/huge');
    await expect(huge).rejects.toBeInstanceOf(ExtractionFailedError);
    await expect(huge).rejects.toMatchObject({ reason: 'out-of-memory' });
    const next = await capped.extract(SMALL_PAGE, 'https://example.com/after');
    expect(next.title).toBe('Small');
  });

  it('sanitises page after page on one thread without its heap filling up', async () => {
    // Every extracted body is wrapped in an element with an id, which jsdom's document keeps hold
    // of (see sanitize.ts): if the sanitised document were kept, 12 of these pages would fill 96 MB
    // (the thread runs out of heap by the fifth or so).
    const threaded = pool({ size: 1, maxHeapMb: 96 });
    for (let i = 0; i < 12; i++) {
      const article = await threaded.extract(pageOf(1500), `https://example.com/${i}`);
      expect(article.wordCount).toBeGreaterThan(1000);
    }
  }, 120_000);

  it('refuses a document over the size limit without parsing it', async () => {
    const sized = pool({ size: 1, maxHtmlLength: 1000 });
    await expect(sized.extract(pageOf(100), 'https://example.com/')).rejects.toMatchObject({
      reason: 'too-large',
    });
  });

  it('runs queued jobs when more pages arrive than there are workers', async () => {
    const shared = pool({ size: 2 });
    const articles = await Promise.all(
      Array.from({ length: 5 }, (_, i) => shared.extract(SMALL_PAGE, `https://example.com/${i}`)),
    );
    expect(articles.map((article) => article.title)).toEqual(Array(5).fill('Small'));
  });
});
