import fs from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ClipStatus } from '../../src/enums.ts';
import { e2eFixture } from '../helpers/e2e.ts';
import { article, html } from '../helpers/site.ts';
import { waitFor } from '../helpers/wait.ts';

const PARAGRAPHS = [
  'Margin keeps what you read. This first paragraph is long enough to count as real article text for the parser.',
  'A second paragraph follows with more words, so that the extractor sees a proper body and not a teaser.',
  'The third paragraph closes the article and mentions highlights, notes and daily reviews in passing.',
];

const app = e2eFixture({
  workers: true,
  site: {
    '/article': html(article('A calm article', PARAGRAPHS)),
    '/second': html(article('Another article', PARAGRAPHS)),
    // Anything else answers 404: a clip of it fails for good.
  },
  browser: { acceptDownloads: true, clipboard: true },
});

async function saveUrl(page: Page, url: string) {
  const input = page.getByTestId('save-url-input');
  await input.fill(url);
  await input.press('Enter');
}

function listItem(page: Page, title: string) {
  return page.getByTestId('note-item').filter({ hasText: title });
}

describe('clipping and reading in Chromium', () => {
  test('save a URL, watch it finish, read it, copy its link, export Markdown, go back with Esc', async () => {
    const { context, page, errors } = await app.signIn('/');

    await saveUrl(page, `${app.site.origin}/article`);
    // The page shows at once (still clipping), then turns done by itself.
    const first = page.getByTestId('note-item').first();
    await first.waitFor();
    expect(await page.getByTestId('save-url-input').inputValue()).toBe('');
    await page.locator(`[data-testid="note-item"][data-clip-status="${ClipStatus.done}"]`).waitFor({
      timeout: 15_000,
    });
    const item = listItem(page, 'A calm article');
    await expect(item.textContent()).resolves.toContain('Test Site');
    expect(await item.getByTestId('clip-status').count()).toBe(0);
    const noteId = (await item.getAttribute('data-note-id')) as string;

    await item.getByRole('link', { name: 'A calm article' }).click();
    const reader = page.getByTestId('reader');
    await reader.waitFor();
    expect(new URL(page.url()).search).toBe(`?pi=${noteId}&vs=article`);
    await expect(reader.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('A calm article');
    await expect(page.getByTestId('reader-content').textContent()).resolves.toContain(
      'Margin keeps what you read.',
    );
    expect(await page.getByTestId('reader-content').textContent()).not.toContain('all rights reserved');

    const original = page.getByTestId('reader-original');
    expect(await original.getAttribute('href')).toBe(`${app.site.origin}/article`);
    expect(await original.getAttribute('target')).toBe('_blank');
    expect((await original.getAttribute('rel'))?.split(' ').sort()).toEqual(['noopener', 'noreferrer']);

    await page.getByTestId('reader-copy-link').click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      app.url(`/?pi=${noteId}&vs=article`),
    );

    await page.getByTestId('reader-export').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-markdown').click(),
    ]);
    expect(download.suggestedFilename()).toBe('A calm article.md');
    const markdown = await fs.readFile(await download.path(), 'utf8');
    expect(markdown).toContain('# A calm article');
    expect(markdown).toContain(`Source: <${app.site.origin}/article>`);
    expect(markdown).toContain('Margin keeps what you read.');

    await page.keyboard.press('Escape');
    await page.getByTestId('note-list').waitFor();
    expect(await page.getByTestId('reader').count()).toBe(0);
    expect(new URL(page.url()).search).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('an invalid address is refused with a message under the box', async () => {
    const { context, page } = await app.signIn('/');
    await page.getByTestId('note-list').or(page.locator('.empty-state')).first().waitFor();
    await saveUrl(page, 'ftp://example.test/file');
    await page.getByTestId('save-url-error').waitFor();
    expect(await page.getByTestId('save-url-input').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('note-item').count()).toBe(0);
    await context.close();
  });

  test('a page that cannot be fetched shows the failed status with Retry, which tries again', async () => {
    const { context, page } = await app.signIn('/');
    await saveUrl(page, `${app.site.origin}/missing`);
    const failed = page.locator(`[data-testid="note-item"][data-clip-status="${ClipStatus.failed}"]`);
    await failed.waitFor({ timeout: 15_000 });
    const status = failed.getByTestId('clip-status');
    expect(await status.getAttribute('data-status')).toBe(String(ClipStatus.failed));
    expect(await status.locator('[data-reason]').getAttribute('data-reason')).toBe('fetch:http_status');
    expect(app.site.hits.get('/missing')).toBe(1);

    await failed.getByTestId('clip-retry').click();
    // Retried: fetched a second time, and (still a 404) failed again.
    await waitFor(
      async () => ((app.site.hits.get('/missing') ?? 0) >= 2 ? true : undefined),
      15_000,
      'retry',
    );
    await page
      .locator(
        `[data-testid="note-item"][data-clip-status="${ClipStatus.failed}"] [data-testid="clip-retry"]`,
      )
      .waitFor({ timeout: 15_000 });
    await context.close();
  });

  test('the deep link /?pi=…&vs=article opens the reader directly; Back goes to the list', async () => {
    const { context, page, user } = await app.signIn();
    const { note: saved } = await user.caller.notes.clip({ url: `${app.site.origin}/second` });
    await waitFor(
      async () => {
        const detail = await user.caller.notes.get({ id: saved.id });
        return detail.clipStatus === ClipStatus.done ? detail : undefined;
      },
      15_000,
      'clip to finish',
    );
    await page.goto(app.url(`/?pi=${saved.id}&vs=article`));
    await page.getByTestId('reader-content').waitFor();
    await expect(page.getByTestId('reader').getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Another article',
    );
    await page.getByTestId('reader-back').click();
    await listItem(page, 'Another article').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await context.close();
  });

  test('someone signed out sees the sign-in prompt, not a list', async () => {
    const { context, page } = await app.open('/');
    await page.getByTestId('home').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await page.getByTestId('save-url-input').count()).toBe(0);
    await context.close();
  });
});
