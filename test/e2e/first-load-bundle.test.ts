import { gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { e2eFixture } from '../helpers/e2e.ts';
import { makeClippedNote } from '../helpers/notes.ts';

/** The budget for the home route's JavaScript, gzipped. */
const BUDGET_BYTES = 150 * 1024;
/** What the first screen never needs: the reader, settings, Markdown and KaTeX load when opened. */
const NOT_ON_FIRST_LOAD = /\/(Reader|HighlightLayer|SettingsPage|markdown|katex)[^/]*\.js$/i;

const app = e2eFixture();

test('the signed-in home route loads at most 150 KB of gzipped JavaScript, none of it the reader, settings or Markdown', async () => {
  const user = await app.user();
  for (let i = 0; i < 12; i++) {
    await makeClippedNote(app.deps, user.user.id, {
      title: `Note ${i}`,
      text: `Some text of note ${i}.`,
      excerpt: `Some text of note ${i}.`,
      tags: i % 3 ? [] : ['reading'],
    });
  }
  const { page, context } = await app.signIn(undefined, { user });
  // Gzip measured here over each body as the browser received it, whatever the server sent.
  const scripts: { url: string; gzipBytes: Promise<number> }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push({
      url: new URL(response.url()).pathname,
      gzipBytes: response.body().then((body) => gzipSync(body, { level: 9 }).length),
    });
  });
  await page.goto(app.url('/'), { waitUntil: 'networkidle' });
  await page.getByTestId('note-item').first().waitFor();
  await page.waitForLoadState('networkidle');

  const loaded = await Promise.all(scripts.map(async (s) => ({ url: s.url, gzipBytes: await s.gzipBytes })));
  const total = loaded.reduce((sum, s) => sum + s.gzipBytes, 0);
  console.log(
    `home route JS as loaded by Chromium: ${(total / 1024).toFixed(1)} KB gzipped in ${loaded.length} files\n` +
      loaded
        .sort((a, b) => b.gzipBytes - a.gzipBytes)
        .map((s) => `  ${(s.gzipBytes / 1024).toFixed(1).padStart(6)} KB ${s.url}`)
        .join('\n'),
  );
  expect(loaded.length).toBeGreaterThan(0);
  expect(loaded.filter((s) => NOT_ON_FIRST_LOAD.test(s.url)).map((s) => s.url)).toEqual([]);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  await context.close();
});
