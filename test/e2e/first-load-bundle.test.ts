import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { e2eFixture } from '../helpers/e2e.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { signedInUser } from '../helpers/users.ts';

/**
 * The budget for the home route's JavaScript, gzipped. Issue 35 asks for 120 KB; this holds what
 * has been reached (132.7 KB), so that nothing grows it back while the rest is found.
 */
const BUDGET_BYTES = 135 * 1024;
/** What the first screen never needs: the reader, settings, Markdown and KaTeX load when opened. */
const NOT_ON_FIRST_LOAD = /\/(Reader|HighlightLayer|SettingsPage|markdown|katex)[^/]*\.js$/i;
/** A locale's chunk (client/locale-chunks.ts): `<language>.json_ns_<part>_lang-<hash>.js`. */
const LOCALE_CHUNK = /\/([\w-]+)\.json_ns_(\w+)_lang-[^/]*\.js$/;

interface LoadedScript {
  url: string;
  gzipBytes: number;
}

const app = e2eFixture();

/** Every script Chromium loads on `/` for a signed-in user with a dozen notes, gzipped as received. */
async function homeRouteScripts(language: string | null): Promise<LoadedScript[]> {
  const user = await signedInUser(app.deps, undefined, 'UTC', language);
  for (let i = 0; i < 12; i++) {
    await makeClippedNote(app.deps, user.user.id, {
      title: `Note ${i}`,
      text: `Some text of note ${i}.`,
      excerpt: `Some text of note ${i}.`,
      tags: i % 3 ? [] : ['reading'],
    });
  }
  const { page, context } = await app.signIn(undefined, { user, locale: language ?? 'en-US' });
  // Gzip measured here over each body as the browser received it, whatever the server sent.
  const scripts: Promise<LoadedScript>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const url = new URL(response.url()).pathname;
    scripts.push(response.body().then((body) => ({ url, gzipBytes: gzipSync(body, { level: 9 }).length })));
  });
  await page.goto(app.url('/'), { waitUntil: 'networkidle' });
  await page.getByTestId('note-item').first().waitFor();
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all(scripts);
  await context.close();
  return loaded.sort((a, b) => b.gzipBytes - a.gzipBytes);
}

const totalOf = (scripts: LoadedScript[]) => scripts.reduce((sum, s) => sum + s.gzipBytes, 0);

/** Printed for the reader of the log, and written for `npm run bench:bundle` when it asks. */
function report(label: string, scripts: LoadedScript[]): void {
  console.log(
    `home route JS as loaded by Chromium (${label}): ${(totalOf(scripts) / 1024).toFixed(1)} KB gzipped in ${scripts.length} files\n` +
      scripts.map((s) => `  ${(s.gzipBytes / 1024).toFixed(1).padStart(6)} KB ${s.url}`).join('\n'),
  );
  const file = process.env.BUNDLE_REPORT_DIR;
  if (file) writeFileSync(`${file}/${label}.json`, JSON.stringify(scripts));
}

test('the signed-in home route loads at most 135 KB of gzipped JavaScript, none of it the reader, settings, Markdown or another namespace’s words', async () => {
  const scripts = await homeRouteScripts(null);
  report('en', scripts);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => NOT_ON_FIRST_LOAD.test(s.url) || LOCALE_CHUNK.test(s.url))).toEqual([]);
  expect(totalOf(scripts)).toBeLessThanOrEqual(BUDGET_BYTES);
});

test('in Simplified Chinese the home route loads that language’s first-screen words and no other', async () => {
  const scripts = await homeRouteScripts('zh-CN');
  report('zh-CN', scripts);
  const locales = scripts.flatMap((s) => {
    const match = LOCALE_CHUNK.exec(s.url);
    return match ? [`${match[1]} ${match[2]}`] : [];
  });
  expect(locales).toEqual(['zh-CN firstScreen']);
  expect(scripts.filter((s) => NOT_ON_FIRST_LOAD.test(s.url))).toEqual([]);
  // Its words are a few KB: the English first screen's in the entry stays, as every key's fallback.
  expect(totalOf(scripts)).toBeLessThanOrEqual(BUDGET_BYTES + 8 * 1024);
});
