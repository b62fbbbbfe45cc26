import fs from 'node:fs/promises';
import type { Page as BrowserPage } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { setClock } from '../../server/clock.ts';
import { User } from '../../server/db/entities/index.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { callerFor } from '../helpers/context.ts';
import { e2eFixture, type SignedInUser } from '../helpers/e2e.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { waitFor } from '../helpers/wait.ts';

const app = e2eFixture({ browser: { acceptDownloads: true } });

/**
 * A fresh user in `timeZone` and a Chromium context signed in as them, living at the server's
 * time in `browserZone` (the same zone unless a test says otherwise).
 */
function signedInBrowser(timeZone = 'Asia/Shanghai', browserZone = timeZone) {
  return app.signIn(undefined, { timeZone, timezoneId: browserZone });
}

/**
 * Instants around midnight in the user's zone, and across the date line, where the user's day
 * differs from the server's UTC day (the hours at which a zone mix-up shows).
 */
const LATE_EVENING_IN_SHANGHAI = {
  when: '23:30 in Shanghai',
  zone: 'Asia/Shanghai',
  at: '2026-03-14T15:30:00Z',
  day: '2026-03-14',
};
const INSTANTS = [
  LATE_EVENING_IN_SHANGHAI,
  {
    when: '00:30 in Shanghai, still the day before in UTC',
    zone: 'Asia/Shanghai',
    at: '2026-03-14T16:30:00Z',
    day: '2026-03-15',
  },
  {
    when: '00:30 on Kiritimati (UTC+14), across the date line',
    zone: 'Pacific/Kiritimati',
    at: '2026-03-14T10:30:00Z',
    day: '2026-03-15',
  },
  {
    when: '23:30 in Pago Pago (UTC−11), the next day in UTC',
    zone: 'Pacific/Pago_Pago',
    at: '2026-03-15T10:30:00Z',
    day: '2026-03-14',
  },
];

function status(page: BrowserPage, value: string) {
  return page.locator(`[data-testid="daily-save-status"][data-status="${value}"]`);
}

/**
 * The worst order for the page's first `daily.get`: the server answers it in the account's old
 * zone, and that answer reaches the page only after the zone report has succeeded.
 */
async function answerTodayBeforeTheZoneReport(page: BrowserPage) {
  let todayAnswered!: () => void;
  const todayAnsweredOnServer = new Promise<void>((resolve) => (todayAnswered = resolve));
  let zoneReported!: () => void;
  const zoneReportDone = new Promise<void>((resolve) => (zoneReported = resolve));
  page.on('requestfinished', (request) => {
    if (request.url().includes('account.setTimeZone')) zoneReported();
  });
  await page.route(/\/trpc\/account\.setTimeZone/, async (route) => {
    await todayAnsweredOnServer;
    await route.continue();
  });
  let first = true;
  await page.route(/\/trpc\/[^?]*daily\.get/, async (route) => {
    if (!first) return route.continue();
    first = false;
    const answer = await route.fetch();
    todayAnswered();
    await zoneReportDone;
    await route.fulfill({ response: answer });
  });
}

/** Waits until the server's copy of today's note satisfies `check`, and answers it. */
function serverToday(user: SignedInUser, check: (text: string) => boolean, what: string) {
  return waitFor(
    async () => {
      const day = await user.caller.daily.get({});
      return check(day.text) ? day : undefined;
    },
    10_000,
    what,
  );
}

/** The day /daily opens on, once the page has settled. */
function todaysEditor(page: BrowserPage) {
  return page.locator('[data-testid="daily-editor"]').first();
}

describe('daily notes in Chromium', () => {
  test('autosave survives reload, an offline spell and a concurrent edit', async () => {
    setClock(LATE_EVENING_IN_SHANGHAI.at);
    const { context, page, user, errors } = await signedInBrowser();
    await page.goto(app.url('/daily'));
    const editor = page.getByTestId('daily-textarea');
    await status(page, 'saved').waitFor();
    expect(await todaysEditor(page).getAttribute('data-date')).toBe(LATE_EVENING_IN_SHANGHAI.day);

    await editor.fill('Morning pages');
    await status(page, 'saving').or(status(page, 'saved')).waitFor();
    await serverToday(user, (t) => t === 'Morning pages', 'first save');
    await status(page, 'saved').waitFor();
    await page.reload();
    await status(page, 'saved').waitFor();
    expect(await editor.inputValue()).toBe('Morning pages');

    // Offline: the edit waits in localStorage, the indicator says so, and it goes out once back online.
    await context.setOffline(true);
    await editor.press('Control+End');
    await editor.pressSequentially('\nWritten offline');
    await status(page, 'offline').waitFor({ timeout: 10_000 });
    expect((await user.caller.daily.get({})).text).toBe('Morning pages');
    await context.setOffline(false);
    const afterOnline = await serverToday(
      user,
      (t) => t === 'Morning pages\nWritten offline',
      'save after online',
    );
    await status(page, 'saved').waitFor();

    // Another device writes from the same version; our next save merges instead of overwriting.
    await user.caller.daily.save({
      date: afterOnline.date,
      text: `From the phone\n${afterOnline.text}`,
      baseText: afterOnline.text,
      baseVersion: afterOnline.version,
    });
    await editor.press('Control+End');
    await editor.pressSequentially('\nFrom the laptop');
    const merged = 'From the phone\nMorning pages\nWritten offline\nFrom the laptop';
    await serverToday(user, (t) => t === merged, 'merged save');
    await waitFor(
      async () => ((await editor.inputValue()) === merged ? true : undefined),
      5_000,
      'merged text',
    );
    await status(page, 'saved').waitFor();

    // Markdown preview with math.
    await editor.press('Control+End');
    await editor.pressSequentially('\n\n**Bold** and $x^2$ <b>raw</b>');
    await page.getByTestId('daily-preview-toggle').click();
    const preview = page.getByTestId('daily-preview');
    await preview.locator('strong', { hasText: 'Bold' }).waitFor();
    await preview.locator('.katex').first().waitFor();
    expect(await preview.locator('b').count()).toBe(0);
    expect(await preview.textContent()).toContain('<b>raw</b>');
    await page.getByTestId('daily-preview-toggle').click();

    // Export as Markdown.
    await page.getByTestId('daily-export').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('daily-export-markdown').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`daily-${afterOnline.date}.md`);
    expect(await fs.readFile(await download.path(), 'utf8')).toContain('From the laptop');
    expect(errors).toEqual([]);

    // Typed offline, then the tab is closed: the next visit restores the draft and sends it.
    await context.setOffline(true);
    await editor.press('Control+End');
    await editor.pressSequentially('\nLast words');
    await status(page, 'offline').waitFor({ timeout: 10_000 });
    await page.close();
    await context.setOffline(false);
    const again = await context.newPage();
    await again.goto(app.url('/daily'));
    await serverToday(user, (t) => t.endsWith('<b>raw</b>\nLast words'), 'restored draft');
    await status(again, 'saved').waitFor();
    expect(await again.getByTestId('daily-textarea').inputValue()).toMatch(/Last words$/);
    await context.close();
  });

  test("the browser's zone reaches an account made in another, and /daily moves to that zone's day", async () => {
    // 00:30 in Shanghai is 16:30 the day before in UTC, the account's zone until the page reports.
    setClock('2026-03-14T16:30:00Z');
    const { context, page, user } = await signedInBrowser('UTC', 'Asia/Shanghai');
    expect((await user.caller.daily.get({})).date).toBe('2026-03-14');
    await answerTodayBeforeTheZoneReport(page);
    await page.goto(app.url('/daily'));
    const reported = await waitFor(async () => {
      const fresh = await app.deps.orm.em.fork().findOneOrFail(User, { id: user.user.id });
      return fresh.timeZone === 'Asia/Shanghai' ? fresh : undefined;
    });
    await page.locator('[data-testid="daily-editor"][data-date="2026-03-15"]').waitFor();
    await status(page, 'saved').waitFor();
    const caller = callerFor(app.deps, { user: reported, session: user.session });
    expect((await caller.daily.get({})).date).toBe('2026-03-15');
    await context.close();
  });
});

describe.each(INSTANTS)('daily notes at $when', ({ zone, at, day }) => {
  test('a quick entry on /postdaily is appended with its time and counted; past days open from the timeline', async () => {
    setClock(at);
    const { context, page, user } = await signedInBrowser(zone);
    await user.caller.daily.save({
      date: '2026-01-02',
      text: 'Gardens and walls',
      baseText: '',
      baseVersion: 0,
    });
    await page.goto(app.url('/postdaily'));
    const input = page.getByTestId('postdaily-input');
    await input.fill('Quick idea about margins');
    await input.press('Control+Enter');
    await page.getByTestId('postdaily-note').getByText('Quick idea about margins').waitFor();
    const note = await page.getByTestId('postdaily-note').textContent();
    expect(note).toMatch(/\d{2}:\d{2} Quick idea about margins/);
    expect(await input.inputValue()).toBe('');
    expect(await page.getByTestId('postdaily-count').getAttribute('data-count')).toBe('1');
    const today = await user.caller.daily.get({});
    expect(today.date).toBe(day);
    // Posted within a minute or two of the instant, in the user's zone.
    const hhmm = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: zone });
    const times = [0, 60_000, 120_000].map((ms) => hhmm.format(new Date(Date.parse(at) + ms)));
    expect(times.map((time) => `**${time}** Quick idea about margins`)).toContain(today.text);

    // /daily shows it, and the timeline (with search) opens an earlier day for editing.
    await page.goto(app.url('/daily'));
    await status(page, 'saved').waitFor();
    expect(await todaysEditor(page).getAttribute('data-date')).toBe(day);
    expect(await page.getByTestId('daily-textarea').inputValue()).toContain('Quick idea about margins');
    await page.getByTestId('daily-search').fill('garden');
    const found = page.locator('[data-testid="daily-day"][data-date="2026-01-02"]');
    // Only the matching day is left once the search has answered.
    await waitFor(async () => ((await page.getByTestId('daily-day').count()) === 1 ? true : undefined));
    await found.waitFor();
    await found.click();
    const pastEditor = page.locator('[data-testid="daily-editor"][data-date="2026-01-02"] textarea');
    await waitFor(async () => ((await pastEditor.inputValue()) === 'Gardens and walls' ? true : undefined));
    await pastEditor.press('End');
    await pastEditor.pressSequentially(' and gates');
    await waitFor(async () => {
      const day = await user.caller.daily.get({ date: '2026-01-02' });
      return day.text === 'Gardens and walls and gates' ? true : undefined;
    });
    await context.close();
  });

  test('highlights moved in through the API show up in /daily, entries read-only', async () => {
    setClock(at);
    const { context, page, user } = await signedInBrowser(zone);
    const text = 'Attention is the rarest and purest form of generosity.';
    const source = await makeClippedNote(app.deps, user.user.id, { title: 'On attention', text });
    const highlight = await user.caller.highlights.create({
      id: newId(),
      noteId: source.id,
      coreType: CoreType.highlight,
      selectors: describeRange(text, 0, 9),
    });
    await user.caller.daily.moveHighlights({ ids: [highlight.id], target: 'today' });
    await user.caller.daily.moveHighlights({ ids: [highlight.id], target: 'new' });

    await page.goto(app.url('/daily'));
    await status(page, 'saved').waitFor();
    expect(await page.getByTestId('daily-textarea').inputValue()).toContain('> Attention');
    const entry = page.getByTestId('daily-entry');
    await entry.locator('blockquote', { hasText: 'Attention' }).waitFor();
    const link = entry.getByRole('link', { name: 'On attention' });
    expect(await link.getAttribute('href')).toBe(`/?pi=${source.id}&vs=article`);
    await context.close();
  });
});
