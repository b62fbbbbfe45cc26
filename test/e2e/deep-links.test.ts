import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeRange } from '../../src/anchoring/index.ts';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { type BrowserApp, startBrowserApp } from '../helpers/browser-app.ts';
import type { TestDeps } from '../helpers/deps.ts';
import type { RunningServer } from '../helpers/http.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { openSignedIn } from '../helpers/signed-in.ts';

let deps: TestDeps;
let server: RunningServer;
let browser: Browser;

let app: BrowserApp;

beforeAll(async () => {
  app = await startBrowserApp();
  ({ deps, server, browser } = app);
});
afterAll(() => app?.close());

test('?nx={note}&vs={view} opens the reader on that note’s page; 24 Hours lists today’s daily note', async () => {
  const { page, user } = await openSignedIn(browser, server, deps, '/');
  const text = 'Attention is the rarest and purest form of generosity.';
  const saved = await makeClippedNote(deps, user.user.id, { title: 'On attention', text });
  const highlight = await user.caller.highlights.create({
    id: newId(),
    noteId: saved.id,
    coreType: CoreType.highlight,
    selectors: describeRange(text, 0, 9),
  });

  await page.goto(`${server.url}/?nx=${highlight.id}&vs=article`);
  await page.getByTestId('reader').waitFor();
  const address = new URL(page.url());
  expect(address.searchParams.get('pi')).toBe(saved.id);
  expect(address.searchParams.get('nx')).toBe(highlight.id);
  await expect(page.getByTestId('reader-content').textContent()).resolves.toContain('Attention');

  await user.caller.daily.append({ text: 'a thought for today' });
  await page.goto(`${server.url}/?nav=24h`);
  await page.getByTestId('recent-daily').waitFor();
  await expect(page.getByTestId('recent-daily').textContent()).resolves.toContain('a thought for today');
  await page.context().close();
});
