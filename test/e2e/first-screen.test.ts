import type { ConsoleMessage, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { e2eFixture } from '../helpers/e2e.ts';
import { insertManyNotes, makeClippedNote } from '../helpers/notes.ts';

const UI_WAIT_MS = 20_000;
const app = e2eFixture({ browser: { timeout: UI_WAIT_MS } });

/** A title that would run, or break the markup, if the server wrote it unescaped. */
const HOSTILE_TITLE = '<script>window.__ran = 1</script><img src=x onerror="window.__ran = 2"> & </div>';

/** What the page logs as errors or warnings (React's hydration mismatches among them). */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  return problems;
}

const firstCard = (page: Page) => page.getByTestId('note-item').first();

describe('the home list server-rendered into index.html', () => {
  test('the first cards are in the page before any script runs, and escaped', async () => {
    const user = await app.user();
    await insertManyNotes(app.deps, user.user.id, 20, 'Older note');
    await makeClippedNote(app.deps, user.user.id, { title: HOSTILE_TITLE, text: 'Body.' });
    const { context, page } = await app.signIn(undefined, { user, javaScriptEnabled: false });
    await page.goto(app.url('/'));
    expect(await firstCard(page).locator('.note-item-title').textContent()).toBe(HOSTILE_TITLE);
    expect(await page.locator('[data-testid="note-item"]').count()).toBeGreaterThan(5);

    const html = await (await context.request.get(app.url('/'))).text();
    const root = html.slice(html.indexOf('<div id="root"'));
    expect(root).toContain('&lt;script&gt;window.__ran = 1&lt;/script&gt;&lt;img src=x onerror=');
    expect(root).not.toContain('<script>window.__ran');
    expect(root).not.toContain('<img src=x');
    await context.close();
  });

  test('the client takes it over without hydration errors; click, scroll and star work', async () => {
    const user = await app.user();
    await insertManyNotes(app.deps, user.user.id, 150, 'Older note');
    const newest = await makeClippedNote(app.deps, user.user.id, { title: HOSTILE_TITLE, text: 'Body.' });
    const { context, page, errors } = await app.signIn(undefined, { user });
    const problems = consoleProblems(page);
    await page.goto(app.url('/'));
    expect(await page.getByTestId('home').getAttribute('data-testid')).toBe('home');
    expect(await page.locator('#root').getAttribute('data-ssr-lang')).toBe('en');
    // Hydrated: the dates the first frame leaves out are written after it.
    await expect.poll(() => firstCard(page).locator('time').textContent()).not.toBe('');
    expect(await page.evaluate(() => (window as { __ran?: number }).__ran)).toBeUndefined();

    // Star the first card.
    const row = page.locator(`[data-note-id="${newest.id}"]`);
    await expect
      .poll(async () => {
        await row.hover();
        return row
          .locator('[data-action="star"]')
          .click({ timeout: 2_000 })
          .then(
            () => true,
            () => false,
          );
      })
      .toBe(true);
    await row.locator('[data-action="star"][aria-pressed="true"]').waitFor();

    // Scrolling loads the next chunk and windows the rows.
    const list = page.getByTestId('note-list');
    await expect
      .poll(async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return list.getAttribute('data-count');
      })
      .toBe('151');
    await page.locator('[data-testid="note-item"] .note-item-title', { hasText: 'Older note 150' }).waitFor();
    expect(await page.locator('[data-testid="note-item"]').count()).toBeLessThan(40);

    // A click opens the reader.
    await page.evaluate(() => window.scrollTo(0, 0));
    await row.locator('.note-item-link').click();
    await page.waitForURL((url) => url.searchParams.has('pi'));

    expect(errors).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a filtered home and other routes are rendered by the client as before', async () => {
    const user = await app.user();
    await makeClippedNote(app.deps, user.user.id, { title: 'Filtered note', text: 'Body.' });
    const { context } = await app.signIn(undefined, { user });
    for (const path of ['/?nav=later', '/daily', '/highlights']) {
      const html = await (await context.request.get(app.url(path))).text();
      expect(html).toContain('<div id="root"></div>');
    }
    const signedOut = await (await fetch(app.url('/'))).text();
    expect(signedOut).toContain('<div id="root"></div>');
    await context.close();
  });
});
