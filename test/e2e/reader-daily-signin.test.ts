import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { Note } from '../../server/db/entities/index.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { e2eFixture, type SignedInUser } from '../helpers/e2e.ts';
import { makeClippedNote } from '../helpers/notes.ts';

/** Waits for the UI: far beyond what a loaded machine needs (expect.poll's default is 1 s). */
const UI_WAIT = { timeout: 20_000 };

const app = e2eFixture();

const TEXT = 'Attention is the rarest and purest form of generosity. The rest of the page says more.';
const MAC_CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** A clipped note by a Latin-named site, with one highlight on its first word. */
async function highlightedNote(user: SignedInUser) {
  const note = await makeClippedNote(app.deps, user.user.id, { title: 'On attention', text: TEXT });
  await app.deps.orm.em
    .fork()
    .nativeUpdate(
      Note,
      { id: note.id },
      { siteName: 'The Atlantic', author: 'Simone Weil', publishedAt: new Date('2025-09-12T10:00:00Z') },
    );
  const highlight = await user.caller.highlights.create({
    id: newId(),
    noteId: note.id,
    coreType: CoreType.highlight,
    selectors: describeRange(TEXT, 0, 'Attention'.length),
  });
  return { note, highlight };
}

/** Clicks the first line of the painted highlight over `phrase` (the reader paints with the Highlight API). */
async function clickPainted(page: Page, phrase: string): Promise<void> {
  const point = await page.waitForFunction((wanted) => {
    for (const [, highlight] of CSS.highlights) {
      for (const painted of highlight) {
        const range = document.createRange();
        range.setStart(painted.startContainer, painted.startOffset);
        range.setEnd(painted.endContainer, painted.endOffset);
        if (range.toString() !== wanted) continue;
        const rect = [...range.getClientRects()].find((r) => r.width > 0);
        if (rect) return { x: rect.left + Math.min(rect.width / 2, 20), y: rect.top + rect.height / 2 };
      }
    }
    return null;
  }, phrase);
  const { x, y } = (await point.jsonValue()) as { x: number; y: number };
  await page.mouse.click(x, y);
}

const toast = (page: Page) =>
  page.locator('[data-sonner-toast]').filter({ has: page.getByTestId('daily-moved-toast') });

/** The test id of the focused element and of the highlight item it sits in. */
function focused(page: Page) {
  return page.evaluate(() => ({
    testId: document.activeElement?.getAttribute('data-testid') ?? null,
    highlightId:
      document.activeElement?.closest('[data-highlight-id]')?.getAttribute('data-highlight-id') ?? null,
    role: document.activeElement?.getAttribute('role') ?? null,
    text: document.activeElement?.textContent ?? null,
  }));
}

/** Text without the Unicode isolates that set names and dates apart inside a sentence. */
const withoutIsolates = (text: string | null) => text?.replace(/[\u2066-\u2069]/g, '') ?? '';

describe('moving highlights into a daily note', () => {
  test('from the reader: the card’s menu moves a highlight to today’s note, /daily shows it, Undo takes it out again', async () => {
    const user = await app.user();
    const { note } = await highlightedNote(user);
    await user.caller.daily.append({ text: 'Morning pages' });
    const before = await user.caller.daily.get({});
    const { page, errors } = await app.signIn(`/?pi=${note.id}&vs=article`, { user });
    await page.getByTestId('reader-content').waitFor();

    await clickPainted(page, 'Attention');
    const card = page.getByTestId('highlight-card');
    await card.waitFor();
    await card.getByRole('button', { name: 'Move to daily note' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem').allTextContents()).resolves.toEqual([
      "Move to today's daily note",
      'Move to a new daily note',
    ]);
    await menu.getByRole('menuitem', { name: "Move to today's daily note" }).click();

    const moved = toast(page);
    await moved.waitFor(UI_WAIT);
    // Over the toast its timer waits, as for any reader who reaches for Undo.
    await moved.hover();
    await expect(moved.textContent()).resolves.toContain("Moved to today's daily note.");
    await expect.poll(async () => (await user.caller.daily.get({})).text, UI_WAIT).toContain('> Attention');
    await moved.getByRole('link', { name: 'Open daily notes' }).click();
    await page.waitForURL(app.url('/daily'));
    const editor = page.getByTestId('daily-textarea');
    await expect.poll(() => editor.inputValue(), UI_WAIT).toContain('> Attention');
    await expect(editor.inputValue()).resolves.toContain(`[On attention](/?pi=${note.id}&vs=article)`);

    await moved.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => editor.inputValue(), UI_WAIT).toBe(before.text);
    await page.getByText('Undone: the quotes were taken out of the daily note.').waitFor();
    const after = await user.caller.daily.get({});
    expect(after).toMatchObject({ id: before.id, text: before.text, entries: [] });
    // The highlight itself never left its note.
    expect(await user.caller.highlights.byNote({ id: note.id })).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('from the highlight list, by keyboard alone: the menu opens, arrows reach “a new daily note”, the focus comes back', async () => {
    const user = await app.user();
    const { highlight } = await highlightedNote(user);
    const { page, errors } = await app.signIn('/highlights', { user });
    const item = page.locator(`[data-testid="highlight-item"][data-highlight-id="${highlight.id}"]`);
    await item.waitFor();

    // Tab through the page until the item's "Move to daily note" has the focus.
    for (let i = 0; i < 60; i++) {
      const now = await focused(page);
      if (now.testId === 'move-to-daily' && now.highlightId === highlight.id) break;
      await page.keyboard.press('Tab');
    }
    const trigger = item.getByRole('button', { name: 'Move to daily note' });
    await expect(focused(page)).resolves.toMatchObject({
      testId: 'move-to-daily',
      highlightId: highlight.id,
    });

    // Esc closes the menu and gives the focus back.
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await expect.poll(async () => (await focused(page)).role).toBe('menuitem');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    // The menu hands the focus back after it has gone, a frame or more later on a busy machine.
    await expect
      .poll(() => focused(page), UI_WAIT)
      .toMatchObject({
        testId: 'move-to-daily',
        highlightId: highlight.id,
      });

    await page.keyboard.press('ArrowDown');
    await page.getByRole('menu').waitFor();
    await expect.poll(async () => (await focused(page)).text).toBe("Move to today's daily note");
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await focused(page)).text).toBe('Move to a new daily note');
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).testId, UI_WAIT).toBe('move-to-daily');
    await expect(trigger.evaluate((el) => el === document.activeElement)).resolves.toBe(true);

    await expect(toast(page).textContent()).resolves.toContain('Moved to a new daily note.');
    const day = await expect
      .poll(async () => (await user.caller.daily.get({})).entries.length, UI_WAIT)
      .toBe(1)
      .then(() => user.caller.daily.get({}));
    expect(day.text).toBe('');
    expect(day.entries[0]?.text).toContain('> Attention');

    await page.goto(app.url('/daily'));
    await page.getByText('More notes from this day').waitFor();
    await page.getByRole('link', { name: 'On attention' }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('the reader’s drawer offers the same menu beside each highlight', async () => {
    const user = await app.user();
    const { note, highlight } = await highlightedNote(user);
    const { page } = await app.signIn(`/?pi=${note.id}&vs=article`, { user });
    await page.getByTestId('reader-highlights').click();
    const entry = page.locator(`[data-testid="panel-entry"][data-highlight-id="${highlight.id}"]`);
    await entry.getByRole('button', { name: 'Move to daily note' }).click();
    await page.getByRole('menuitem', { name: 'Move to a new daily note' }).click();
    await toast(page).waitFor(UI_WAIT);
    await expect.poll(async () => (await user.caller.daily.get({})).entries.length, UI_WAIT).toBe(1);
    await page.context().close();
  });
});

describe('sign-in screens', () => {
  async function expectAgreement(page: Page) {
    const agreement = page.locator('.agreement');
    await expect(agreement.textContent()).resolves.toBe(
      'By continuing you agree to the Terms of Service and the Privacy Policy.',
    );
    await expect(
      agreement.getByRole('link', { name: 'Terms of Service' }).getAttribute('href'),
    ).resolves.toBe('/terms');
    await expect(agreement.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).resolves.toBe(
      '/privacy',
    );
  }

  async function expectOtherMethods(page: Page) {
    await page.getByRole('heading', { name: 'Other login methods' }).waitFor();
    const panel = page.getByTestId('qr-panel');
    await page.locator('[data-testid="qr-panel"][data-ticket-url]').waitFor(UI_WAIT);
    await expect(panel.getByRole('heading', { name: 'Phone login' }).count()).resolves.toBe(1);
    await expect(
      panel.getByRole('img', { name: 'QR code for signing in with your phone' }).count(),
    ).resolves.toBe(1);
  }

  test('/login shows the terms and privacy line beside other login methods and the QR code', async () => {
    const { page, errors } = await app.open('/login');
    await page.getByTestId('login-form').waitFor();
    await expectAgreement(page);
    await expectOtherMethods(page);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('/register shows other login methods and the QR code beside the form and its agreement', async () => {
    const { page, errors } = await app.open('/register');
    await page.getByTestId('register-form').waitFor();
    await expectAgreement(page);
    await expectOtherMethods(page);
    expect(errors).toEqual([]);
    await page.context().close();

    // On a phone the code waits behind a button.
    const { page: phone } = await app.open('/register', {
      viewport: { width: 360, height: 740 },
      isMobile: true,
    });
    await phone.getByRole('heading', { name: 'Other login methods' }).waitFor();
    await expect(phone.getByTestId('qr-panel').count()).resolves.toBe(0);
    await phone.getByRole('button', { name: 'Scan with your phone' }).click();
    await phone.getByTestId('qr-panel').waitFor();
    await phone.context().close();
  });

  test('the QR confirmation names the asking browser as “Chrome on macOS”, not its User-Agent', async () => {
    const user = await app.user();
    const { page: desktop } = await app.open('/login', { userAgent: MAC_CHROME });
    await desktop.locator('[data-testid="qr-panel"][data-ticket-url]').waitFor(UI_WAIT);
    const ticketUrl = (await desktop.getByTestId('qr-panel').getAttribute('data-ticket-url')) as string;

    const { page: phone, errors } = await app.signIn(undefined, { user });
    await phone.goto(ticketUrl);
    const browser = phone.getByTestId('qr-browser');
    await browser.waitFor(UI_WAIT);
    await expect(browser.textContent().then(withoutIsolates)).resolves.toBe('Chrome on macOS');
    await expect(browser.textContent()).resolves.not.toContain('Mozilla');
    // The full header stays at hand on hover.
    await expect(browser.getAttribute('title')).resolves.toBe(MAC_CHROME);
    expect(errors).toEqual([]);
    await phone.context().close();
    await desktop.context().close();
  });
});

/** The screen boxes of the parts of a date (day, month, year) as Intl splits it, inside `time`. */
async function partBoxes(time: Locator, options: Intl.DateTimeFormatOptions, date: Date) {
  return time.evaluate(
    (element, { options, at }) => {
      const parts = new Intl.DateTimeFormat('ar', options).formatToParts(new Date(at));
      const node = element.firstChild as Text;
      const boxes: Record<string, { left: number; right: number }> = {};
      let offset = 0;
      for (const part of parts) {
        if (part.type === 'day' || part.type === 'month' || part.type === 'year') {
          const range = document.createRange();
          range.setStart(node, offset);
          range.setEnd(node, offset + part.value.length);
          const rect = range.getBoundingClientRect();
          boxes[part.type] = { left: rect.left, right: rect.right };
        }
        offset += part.value.length;
      }
      return boxes;
    },
    { options, at: date.getTime() },
  );
}

/** What a date element looks like to the bidi algorithm, and its text. */
function bidiOf(element: Locator) {
  return element.evaluate((el) => ({
    text: el.textContent,
    direction: getComputedStyle(el).direction,
    unicodeBidi: getComputedStyle(el).unicodeBidi,
    lang: el.getAttribute('lang'),
  }));
}

describe('dates in Arabic read in order', () => {
  test('the library’s date line and the reader’s meta line: each date an isolated right-to-left island, day before year', async () => {
    const user = await app.user();
    const { note } = await highlightedNote(user);
    const stored = await app.deps.orm.em.fork().findOneOrFail(Note, { id: note.id });
    const { page, errors } = await app.signIn('/', { user, locale: 'ar' });
    await page.locator('html[dir="rtl"]').waitFor();

    const medium = { dateStyle: 'medium' } as const;
    const expected = (date: Date) =>
      page.evaluate(({ at, options }) => new Intl.DateTimeFormat('ar', options).format(new Date(at)), {
        at: date.getTime(),
        options: medium,
      });

    // The library: site name and date, each in an element of its own, isolated from the other.
    const meta = page.locator('.note-item-meta').first();
    await meta.waitFor(UI_WAIT);
    const site = meta.locator('span[dir="auto"]').first();
    const date = meta.locator('time');
    await expect(bidiOf(site)).resolves.toMatchObject({
      text: 'The Atlantic',
      unicodeBidi: 'isolate',
      direction: 'ltr',
    });
    // A card's date is written just after the first frame (client/lib/first-frame.ts).
    const createdText = await expected(stored.createdAt);
    await expect
      .poll(() => bidiOf(date), UI_WAIT)
      .toEqual({
        text: createdText,
        direction: 'rtl',
        unicodeBidi: 'isolate',
        lang: 'ar',
      });
    await expect(date.getAttribute('datetime')).resolves.toBe(stored.createdAt.toISOString());
    // Right to left: the site name first (rightmost), then the date; in the date the day, then the year.
    const [siteBox, dateBox] = [await site.boundingBox(), await date.boundingBox()];
    expect(siteBox && dateBox && siteBox.x >= dateBox.x + dateBox.width).toBe(true);
    const listParts = await partBoxes(date, medium, stored.createdAt);
    expect(listParts.day?.left).toBeGreaterThan(listParts.year?.left ?? Number.POSITIVE_INFINITY);

    // The reader: an English article (left to right) with the app's Arabic date in its header.
    await page.goto(app.url(`/?pi=${note.id}&vs=article`));
    const readerMeta = page.locator('.reader-meta');
    await readerMeta.waitFor(UI_WAIT);
    const published = readerMeta.locator('time');
    const publishedAt = new Date('2025-09-12T10:00:00Z');
    await expect(bidiOf(published)).resolves.toEqual({
      text: await expected(publishedAt),
      direction: 'rtl',
      unicodeBidi: 'isolate',
      lang: 'ar',
    });
    const readerParts = await partBoxes(published, medium, publishedAt);
    expect(readerParts.day?.left).toBeGreaterThan(readerParts.year?.left ?? Number.POSITIVE_INFINITY);
    await expect(bidiOf(readerMeta.locator('.reader-byline'))).resolves.toMatchObject({
      text: 'The Atlantic · Simone Weil',
      unicodeBidi: 'isolate',
      direction: 'ltr',
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('daily notes and the QR confirmation: dates inside Arabic sentences are set apart', async () => {
    const user = await app.user();
    await user.caller.daily.append({ text: 'صباح الخير' });
    const { page } = await app.signIn('/daily', { user, locale: 'ar' });
    const title = page.getByTestId('daily-day-title');
    const day = title.locator('time');
    await day.waitFor(UI_WAIT);
    const today = (await user.caller.daily.get({})).date;
    const full = await page.evaluate(
      (d) =>
        new Intl.DateTimeFormat('ar', { dateStyle: 'full', timeZone: 'UTC' }).format(
          new Date(`${d}T12:00:00Z`),
        ),
      today,
    );
    await expect(bidiOf(day)).resolves.toMatchObject({
      text: full,
      direction: 'rtl',
      unicodeBidi: 'isolate',
    });
    await expect(day.getAttribute('datetime')).resolves.toBe(today);

    const { page: desktop } = await app.open('/login', { userAgent: MAC_CHROME, locale: 'ar' });
    await desktop.locator('[data-testid="qr-panel"][data-ticket-url]').waitFor(UI_WAIT);
    await page.goto((await desktop.getByTestId('qr-panel').getAttribute('data-ticket-url')) as string);
    const browser = page.getByTestId('qr-browser');
    await browser.waitFor(UI_WAIT);
    // Each name in an isolate of its own, so "Chrome على macOS" keeps its order.
    await expect(browser.textContent()).resolves.toBe('\u2068Chrome\u2069 على \u2068macOS\u2069');
    await page.context().close();
    await desktop.context().close();
  });
});
