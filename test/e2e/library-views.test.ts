import type { Page as BrowserPage } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { Note } from '../../server/db/entities/index.ts';
import { ClipStatus, CoreType, Flow } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { e2eFixture, type SignedInUser } from '../helpers/e2e.ts';
import { insertManyNotes, makeClippedNote } from '../helpers/notes.ts';

/** How long a wait for the UI may take: far beyond what a loaded machine needs. */
const UI_WAIT_MS = 20_000;

const app = e2eFixture({ browser: { timeout: UI_WAIT_MS } });

/** A picture the browser can show without a network (the list shows whatever `image` names). */
const PICTURE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><rect width="640" height="360" fill="#3b7dd8"/></svg>',
)}`;

interface NoteFields {
  flow?: number;
  tags?: string[];
  image?: string;
  clipStatus?: number;
  highlightCount?: number;
  siteName?: string;
  url?: string;
}

/** A clipped note made straight in the database, then given what the test needs of its row. */
async function makeNote(user: SignedInUser, title: string, fields: NoteFields = {}) {
  const note = await makeClippedNote(app.deps, user.user.id, {
    title,
    text: `${title}: the snow melts and the rivers rise.`,
    excerpt: 'When the snow melts in the high valleys, the rivers rise quickly and carry cold water down.',
    tags: fields.tags,
    flow: fields.flow,
  });
  await app.deps.orm.em.fork().nativeUpdate(
    Note,
    { id: note.id },
    {
      image: fields.image ?? null,
      siteName: fields.siteName ?? null,
      clipStatus: fields.clipStatus ?? ClipStatus.done,
      clipError: fields.clipStatus === ClipStatus.failed ? 'fetch:http_status' : null,
      highlightCount: fields.highlightCount ?? 0,
      ...(fields.url && { url: fields.url }),
    },
  );
  return note;
}

function row(page: BrowserPage, noteId: string) {
  return page.locator(`[data-testid="note-item"][data-note-id="${noteId}"]`);
}

async function chooseView(page: BrowserPage, view: 'article' | 'card' | 'list') {
  await page.getByTestId('view-switch').locator(`label:has([data-testid="view-${view}"])`).click();
  await page.locator(`[data-testid="note-list"][data-view="${view}"]`).waitFor();
}

/** The markers a row shows, as `marker: label` pairs in their order. */
function markersOf(page: BrowserPage, noteId: string): Promise<string[]> {
  return row(page, noteId)
    .locator('.note-marker')
    .evaluateAll((markers) =>
      markers.map((m) => `${m.getAttribute('data-marker')}: ${m.getAttribute('aria-label')}`),
    );
}

function navLink(page: BrowserPage, nav: string) {
  return page.getByTestId('sidebar-nav').locator(`[data-nav="${nav}"]`);
}

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe('the library’s views in Chromium', () => {
  test('cards fill the row in 320 px columns with gap 8, show picture or placeholder, title, site, excerpt and count; the checkbox never covers text', async () => {
    const user = await app.user();
    const pictured = await makeNote(user, 'Rivers in Spring', {
      image: PICTURE,
      siteName: 'The Daily Test',
      highlightCount: 3,
      tags: ['nature'],
    });
    const plain = await makeNote(user, 'A page with no picture at all and a title long enough to wrap twice');
    const addressed = [
      await makeNote(user, 'On a server at home', { url: 'http://192.168.1.20/notes/today' }),
      await makeNote(user, 'On a server by IPv6', { url: 'http://[2001:db8::7]:8080/page' }),
    ];
    for (let i = 0; i < 3; i++) await makeNote(user, `Filler ${i}`);
    const { context, page, errors } = await app.signIn('/', { user });
    await chooseView(page, 'card');
    const list = page.getByTestId('note-list');
    await row(page, pictured.id).waitFor();

    // The grid: as many columns as fit at 320 px + 8, filling the list's width edge to edge.
    const listBox = (await list.boundingBox()) as Box;
    const columns = Math.max(1, Math.floor((listBox.width + 8) / 328));
    await expect.poll(() => list.getAttribute('data-columns')).toBe(String(columns));
    expect(columns).toBeGreaterThan(1);
    const firstRow: Box[] = [];
    for (let i = 0; i < columns; i++)
      firstRow.push(
        (await page.locator(`[data-testid="note-item"][data-index="${i}"]`).boundingBox()) as Box,
      );
    firstRow.sort((a, b) => a.x - b.x);
    expect(Math.abs(firstRow[0]!.x - listBox.x)).toBeLessThanOrEqual(1);
    const last = firstRow.at(-1)!;
    expect(Math.abs(last.x + last.width - (listBox.x + listBox.width))).toBeLessThanOrEqual(1);
    for (let i = 1; i < firstRow.length; i++) {
      expect(firstRow[i]!.x - (firstRow[i - 1]!.x + firstRow[i - 1]!.width)).toBeCloseTo(8, 0);
      expect(firstRow[i]!.width).toBeGreaterThanOrEqual(320);
    }

    // A card: its picture (loaded), title, site, excerpt, highlight count, tags; every part inside it.
    const card = row(page, pictured.id);
    const picture = card.locator('.note-item-cover img');
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await expect(card.locator('.note-item-title').textContent()).resolves.toBe('Rivers in Spring');
    await expect(card.locator('.note-item-meta').textContent()).resolves.toContain('The Daily Test');
    await expect(card.locator('.note-item-excerpt').textContent()).resolves.toContain('When the snow melts');
    await expect(card.locator('.note-item-count').getAttribute('title')).resolves.toBe('3 highlights');
    const cardBox = (await card.boundingBox()) as Box;
    for (const part of ['.note-item-title', '.note-item-meta', '.note-item-excerpt', '.note-item-tags']) {
      const box = (await card.locator(part).boundingBox()) as Box;
      expect(box.y + box.height).toBeLessThanOrEqual(cardBox.y + cardBox.height);
    }
    // The title's two lines are its own: the meta line starts below them.
    const plainCard = row(page, plain.id);
    const title = (await plainCard.locator('.note-item-title').boundingBox()) as Box;
    const meta = (await plainCard.locator('.note-item-meta').boundingBox()) as Box;
    expect(title.height).toBeGreaterThan(30);
    expect(meta.y).toBeGreaterThanOrEqual(title.y + title.height - 1);
    // No picture: a placeholder with the site's initial in its place.
    expect(await plainCard.locator('.note-item-cover img').count()).toBe(0);
    await expect(plainCard.locator('.note-item-initial').textContent()).resolves.toBe('P');
    // A page of an address (every one would show "1" or "["): a neutral glyph, no character.
    for (const note of addressed) {
      const initial = row(page, note.id).locator('.note-item-initial');
      await expect(initial.getAttribute('data-glyph')).resolves.toBe('globe');
      await expect(initial.textContent()).resolves.toBe('');
      expect(await initial.locator('svg').count()).toBe(1);
    }

    // The checkbox: hidden until hover, then on the picture's corner, clear of every text.
    const check = plainCard.getByTestId('note-select');
    expect(await check.evaluate((el) => getComputedStyle(el).opacity)).toBe('0');
    await plainCard.hover();
    await expect.poll(() => check.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    const checkBox = (await check.boundingBox()) as Box;
    const cover = (await plainCard.locator('.note-item-cover').boundingBox()) as Box;
    expect(overlaps(checkBox, cover) && checkBox.y + checkBox.height <= cover.y + cover.height).toBe(true);
    for (const part of ['.note-item-title', '.note-item-meta', '.note-item-excerpt']) {
      expect(overlaps(checkBox, (await plainCard.locator(part).boundingBox()) as Box)).toBe(false);
    }
    // Once one card is selected, every card shows its checkbox (selection mode).
    await check.check();
    const otherCheck = card.getByTestId('note-select');
    await page.mouse.move(listBox.x + listBox.width / 2, 5);
    await expect.poll(() => otherCheck.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await page.keyboard.press('Escape');

    // At 360 px: one column as wide as the list, nothing wider than the screen.
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(() => list.getAttribute('data-columns')).toBe('1');
    const narrowList = (await list.boundingBox()) as Box;
    const narrowCard = (await page.locator('[data-testid="note-item"][data-index="0"]').boundingBox()) as Box;
    expect(Math.abs(narrowCard.width - narrowList.width)).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    expect(errors).toEqual([]);
    await context.close();
  });

  test('a long card list stays windowed', async () => {
    const user = await app.user();
    await insertManyNotes(app.deps, user.user.id, 3_000, 'Card');
    const { context, page } = await app.signIn('/', { user });
    await chooseView(page, 'card');
    await page.locator('[data-testid="note-item"][data-index="0"]').waitFor();
    await page.evaluate(() => window.scrollTo(0, 4000));
    await expect
      .poll(async () => Number(await page.getByTestId('note-item').first().getAttribute('data-index')))
      .toBeGreaterThan(0);
    expect(await page.getByTestId('note-item').count()).toBeLessThan(120);
    await context.close();
  });

  test('every view marks starred, read later, archived, in the trash, and failed, queued or processing clips, with translated names', async () => {
    const user = await app.user();
    const starred = await makeNote(user, 'Starred one', { flow: Flow.shortlist });
    const later = await makeNote(user, 'Later one', { flow: Flow.later });
    const archived = await makeNote(user, 'Archived one', { flow: Flow.archive });
    const failed = await makeNote(user, 'Failed one', { clipStatus: ClipStatus.failed });
    const queued = await makeNote(user, 'Queued one', { clipStatus: ClipStatus.queued });
    const processing = await makeNote(user, 'Processing one', { clipStatus: ClipStatus.processing });
    const plain = await makeNote(user, 'Plain one');
    const binned = await makeNote(user, 'Binned one', { flow: Flow.shortlist });
    for (const note of [starred, binned]) {
      await user.caller.highlights.create({
        id: newId(),
        noteId: note.id,
        coreType: CoreType.textNote,
        text: `A passage of ${note.title}`,
      });
    }
    await user.caller.notes.trash({ ids: [binned.id] });

    const expected: [string, string[]][] = [
      [starred.id, ['star: Starred']],
      [later.id, ['later: Read later']],
      [archived.id, ['archive: Archived']],
      [failed.id, ['failed: Clip failed, the text cannot be extracted']],
      [queued.id, ['queued: Queued, waiting for collection']],
      [processing.id, ['processing: The server is processing the full text']],
      [plain.id, []],
    ];
    for (const width of [1280, 360]) {
      const { context, page, errors } = await app.signIn('/', { user, viewport: { width, height: 900 } });
      for (const view of ['article', 'card', 'list'] as const) {
        await chooseView(page, view);
        for (const [id, markers] of expected) {
          await row(page, id).waitFor();
          expect(await markersOf(page, id), `${view} at ${width}px`).toEqual(markers);
          for (const marker of await row(page, id).locator('.note-marker').all())
            expect(await marker.isVisible(), `${view} at ${width}px`).toBe(true);
        }
        // The trash marks its notes as in the trash, beside their state.
        await page.goto(app.url('/?nav=trash'));
        await row(page, binned.id).waitFor();
        expect(await markersOf(page, binned.id)).toEqual(['trash: In the trash', 'star: Starred']);
        await page.goto(app.url('/'));
      }
      expect(errors).toEqual([]);
      await context.close();
    }

    // The highlight list marks each highlight's note; names follow the language.
    const { context, page } = await app.signIn('/highlights', { user, locale: 'zh-CN' });
    const labels = (text: string) =>
      page
        .getByTestId('highlight-item')
        .filter({ hasText: text })
        .locator('.note-marker')
        .evaluateAll((markers) => markers.map((m) => m.getAttribute('aria-label')));
    await page.getByTestId('highlight-item').first().waitFor();
    await expect.poll(() => labels('Binned one')).toEqual(['在回收站中', '已加星标']);
    await expect.poll(() => labels('Starred one')).toEqual(['已加星标']);
    await page.goto(app.url('/'));
    await row(page, later.id).waitFor();
    expect(await markersOf(page, later.id)).toEqual(['later: 稍后读']);
    await context.close();
  });

  test('the heading and the tab’s title name the folder, tag, no tag, state and search, alone and together', async () => {
    const user = await app.user();
    const folder = await user.caller.folders.create({ name: 'Research' });
    const note = await makeNote(user, 'River study', { tags: ['travel'], flow: Flow.later });
    await user.caller.notes.moveToFolder({ ids: [note.id], folderId: folder.id });
    const { context, page, errors } = await app.signIn('/', { user });
    const heading = page.getByTestId('notes-title');
    const cases: [string, string][] = [
      ['/', 'All'],
      [`/?fid=${folder.id}`, 'Research'],
      ['/?tags=travel', '#travel'],
      ['/?tags=travel,deep', '#travel #deep'],
      ['/?nav=notag', 'No Tag'],
      ['/?nav=later', 'Later'],
      ['/?nav=star', 'Star'],
      ['/?nav=archive', 'Archive'],
      ['/?nav=unarchive', 'Unarchive'],
      ['/?nav=trash', 'Trash'],
      ['/?nav=24h', '24 Hours'],
      ['/?kw=river', 'Search: “river”'],
      [`/?fid=${folder.id}&kw=river`, 'Research · Search: “river”'],
      ['/?nav=later&tags=travel', 'Later · #travel'],
    ];
    for (const [path, expected] of cases) {
      await page.goto(app.url(path));
      await expect.poll(() => heading.textContent(), { timeout: UI_WAIT_MS }).toBe(expected);
      await expect.poll(() => page.title()).toBe(`${expected} – Margin`);
    }
    // Choosing a folder in the sidebar names it at once, from any view: it shows the whole
    // folder (All), and the folder, not All, is the entry marked. The search box adds to it.
    await page.goto(app.url('/?nav=24h'));
    await expect.poll(() => heading.textContent()).toBe('24 Hours');
    await navLink(page, 'folder').click();
    const folderLink = page.getByTestId('folder-tree').locator(`[data-folder-id="${folder.id}"] a`);
    await folderLink.click();
    await expect.poll(() => heading.textContent()).toBe('Research');
    expect(new URL(page.url()).searchParams.get('nav')).toBeNull();
    await expect(folderLink.getAttribute('aria-current')).resolves.toBe('page');
    await expect(navLink(page, 'all').getAttribute('aria-current')).resolves.toBeNull();
    const box = page.getByTestId('search-input');
    await box.fill('#travel river');
    await box.press('Enter');
    await expect.poll(() => heading.textContent()).toBe('Research · #travel · Search: “river”');
    // The removable filters below name the same folder.
    await expect
      .poll(() => page.getByTestId('filter-chips').locator('.filter-chip').allTextContents())
      .toEqual(['#travel', '“river”', 'Research']);
    // Elsewhere the tab is the app's again.
    await page.goto(app.url('/daily'));
    await expect.poll(() => page.title()).toBe('Margin');
    expect(errors).toEqual([]);
    await context.close();

    // In another language the view's name and the search are translated.
    const ja = await app.signIn(`/?nav=star&kw=川`, { user, locale: 'ja' });
    await expect.poll(() => ja.page.getByTestId('notes-title').textContent()).toBe('スター · 検索：「川」');
    await ja.context.close();
  });

  test('a tag used only on a highlight counts its note in the sidebar and filters to it', async () => {
    const user = await app.user();
    const quoted = await makeNote(user, 'Quoted note');
    await makeNote(user, 'Other note', { tags: ['elsewhere'] });
    await user.caller.highlights.create({
      id: newId(),
      noteId: quoted.id,
      coreType: CoreType.textNote,
      text: 'A passage worth keeping',
      tags: ['quote'],
    });
    const { context, page, errors } = await app.signIn('/', { user });
    await navLink(page, 'tag').click();
    const tag = page.getByTestId('tag-list').locator('[data-tag="quote"]');
    await expect.poll(() => tag.locator('.nav-count').textContent()).toBe('1');
    await tag.locator('a').click();
    await expect
      .poll(() => page.locator('[data-testid="note-item"] .note-item-title').allTextContents())
      .toEqual(['Quoted note']);
    await expect.poll(() => page.getByTestId('notes-title').textContent()).toBe('#quote');
    expect(errors).toEqual([]);
    await context.close();
  });
});
