import type { Page as BrowserPage } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { User } from '../../server/db/entities/index.ts';
import { Flow } from '../../src/enums.ts';
import { e2eFixture } from '../helpers/e2e.ts';
import { insertManyNotes, makeClippedNote } from '../helpers/notes.ts';
import { waitFor } from '../helpers/wait.ts';

/** How long a wait for the UI may take: far beyond what a loaded machine needs. */
const UI_WAIT_MS = 20_000;
/** Scrolling through a hundred chunks of 100 rows: about 10 s on an idle machine. */
const SCROLL_TO_END_MS = 150_000;

const app = e2eFixture({ browser: { timeout: UI_WAIT_MS } });

/** A clipped note of `user`, made straight in the database. */
function makeNote(user: User, title: string, text: string, extra: { tags?: string[]; flow?: number } = {}) {
  return makeClippedNote(app.deps, user.id, { title, text, excerpt: text, ...extra });
}

/** The titles the list shows, top to bottom. */
async function titles(page: BrowserPage): Promise<string[]> {
  return page.locator('[data-testid="note-item"] .note-item-title').allTextContents();
}

async function expectTitles(page: BrowserPage, expected: string[]) {
  await expect.poll(() => titles(page), { timeout: UI_WAIT_MS }).toEqual(expected);
}

function navLink(page: BrowserPage, nav: string) {
  return page.getByTestId('sidebar-nav').locator(`[data-nav="${nav}"]`);
}

describe('the note list in Chromium', () => {
  test('left nav with counts, views and sorts, keyboard, bulk actions, trash and restore, search', async () => {
    const user = await app.user();
    const alpha = await makeNote(user.user, 'Alpha gardens', 'Notes on patient gardening.', {
      tags: ['travel'],
    });
    await makeNote(user.user, 'Beta rivers', 'Water moves slowly.', { tags: ['travel'], flow: Flow.later });
    await makeNote(user.user, 'Gamma stars', 'Looking up.', { flow: Flow.shortlist });
    await makeNote(user.user, 'Delta archive', 'Old things.', { flow: Flow.archive });
    await makeNote(user.user, '产品', '提升用户体验的十个方法。');
    const { context, page, errors } = await app.signIn('/', { user });
    const all = ['产品', 'Delta archive', 'Gamma stars', 'Beta rivers', 'Alpha gardens'];
    await expectTitles(page, all);
    await expect
      .poll(() => navLink(page, 'all').locator('.nav-count').textContent(), { timeout: UI_WAIT_MS })
      .toBe('5');

    // Every left-nav view.
    for (const [nav, expected] of [
      ['later', ['Beta rivers']],
      ['star', ['Gamma stars']],
      ['archive', ['Delta archive']],
      ['unarchive', ['产品', 'Gamma stars', 'Beta rivers', 'Alpha gardens']],
      ['24h', []],
      ['notag', ['产品', 'Delta archive', 'Gamma stars']],
      ['trash', []],
      ['all', all],
    ] as const) {
      await navLink(page, nav).click();
      expect(await page.getByTestId('notes-title').getAttribute('data-nav')).toBe(nav);
      if (expected.length) await expectTitles(page, [...expected]);
      else await page.getByTestId('note-list-empty').waitFor();
    }

    // Tag section: the tag with its count filters the list.
    await navLink(page, 'tag').click();
    await page.getByTestId('tag-list').waitFor();
    await page.getByTestId('tag-list').locator('[data-tag="travel"] a').click();
    expect(new URL(page.url()).searchParams.get('tags')).toBe('travel');
    await expectTitles(page, ['Beta rivers', 'Alpha gardens']);
    await page.getByTestId('clear-filters').click();
    await expectTitles(page, all);

    // Views and sorts, remembered on the device.
    await page.locator('[data-testid="view-switch"] label').nth(1).click();
    await page.locator('[data-testid="note-list"][data-view="card"]').waitFor();
    await page.locator('[data-testid="view-switch"] label').nth(2).click();
    await page.locator('[data-testid="note-list"][data-view="list"]').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('margin.viewStyle'))).toBe('list');
    await page.getByTestId('sort-select').selectOption('created-asc');
    await expectTitles(page, [...all].reverse());
    expect(new URL(page.url()).searchParams.get('sort')).toBe('created-asc');
    await page.getByTestId('sort-select').selectOption('created-desc');
    await expectTitles(page, all);

    // Keyboard: down, down, up past the top stays at the first; Enter opens the reader.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.locator('[data-testid="note-item"][data-index="1"][data-active]').waitFor();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
    const first = page.locator('[data-testid="note-item"][data-index="0"][data-active]');
    await first.waitFor();
    const firstId = await first.getAttribute('data-note-id');
    await page.keyboard.press('Enter');
    await page.getByTestId('reader').waitFor();
    expect(new URL(page.url()).searchParams.get('pi')).toBe(firstId);
    expect(new URL(page.url()).searchParams.get('vs')).toBe('list');
    await page.goBack();
    await expectTitles(page, all);

    // Bulk: select two (x and Shift+click), archive them.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('x');
    await page.locator('[data-testid="note-item"][data-index="0"][data-selected]').waitFor();
    await page
      .locator('[data-testid="note-item"][data-index="1"] [data-testid="note-select"]')
      .click({ modifiers: ['Shift'] });
    await page.getByTestId('bulk-bar').locator('[data-count="2"]').waitFor();
    await page.getByTestId('bulk-bar').locator('[data-action="archive"]').click();
    await expect
      .poll(() => navLink(page, 'archive').locator('.nav-count').textContent(), { timeout: UI_WAIT_MS })
      .toBe('2');
    expect(await page.getByTestId('bulk-bar').count()).toBe(0);

    // Bulk trash, then put one back from the trash and delete the other for good.
    await page.locator('[data-testid="note-item"][data-index="0"] [data-testid="note-select"]').check();
    await page.locator('[data-testid="note-item"][data-index="1"] [data-testid="note-select"]').check();
    await page.getByTestId('bulk-bar').locator('[data-action="trash"]').click();
    await expectTitles(page, ['Gamma stars', 'Beta rivers', 'Alpha gardens']);
    expect(await page.getByTestId('trash-notice').count()).toBe(0);
    await navLink(page, 'trash').click();
    await expectTitles(page, ['产品', 'Delta archive']);
    // The trash says when its notes go for good.
    await expect(page.getByTestId('trash-notice').textContent()).resolves.toBe(
      'Notes in the trash are deleted for good after 30 days.',
    );
    const trashed = page.getByTestId('note-item').filter({ hasText: '产品' });
    await trashed.hover();
    expect(await trashed.locator('[data-action="trash"]').count()).toBe(0);
    await trashed.locator('[data-action="restore"]').click();
    await expectTitles(page, ['Delta archive']);
    const doomed = page.getByTestId('note-item').first();
    await doomed.hover();
    await doomed.locator('[data-action="delete-forever"]').click();
    await page.getByTestId('confirm-delete-forever').click();
    await page.getByTestId('note-list-empty').waitFor();
    await expect
      .poll(() => navLink(page, 'all').locator('.nav-count').textContent(), { timeout: UI_WAIT_MS })
      .toBe('4');

    // Per-item star toggles the state.
    await navLink(page, 'all').click();
    const alphaRow = page.locator(`[data-note-id="${alpha.id}"]`);
    // The list re-renders as the view loads: a row hovered before it did loses its actions to the
    // new row, so hover and click are tried again until the click lands (a refused click clicks nothing).
    await expect
      .poll(
        async () => {
          await alphaRow.hover();
          return alphaRow
            .locator('[data-action="star"]')
            .click({ timeout: 2_000 })
            .then(
              () => true,
              () => false,
            );
        },
        { timeout: UI_WAIT_MS },
      )
      .toBe(true);
    await alphaRow.locator('[data-action="star"][aria-pressed="true"]').waitFor();

    // Search: #tag narrows by tag, a CJK word matches as a substring and is marked.
    await page.locator('[data-testid="view-switch"] label').nth(0).click();
    await page.locator('[data-testid="note-list"][data-view="article"]').waitFor();
    const box = page.getByTestId('search-input');
    await box.fill('#travel');
    await box.press('Enter');
    expect(new URL(page.url()).searchParams.get('tags')).toBe('travel');
    await expectTitles(page, ['Beta rivers', 'Alpha gardens']);
    await box.fill('用户');
    await box.press('Enter');
    expect(new URL(page.url()).searchParams.get('kw')).toBe('用户');
    await expectTitles(page, ['产品']);
    expect(await page.locator('mark.search-hit').first().textContent()).toBe('用户');
    await page.getByTestId('clear-filters').click();
    await expectTitles(page, ['产品', 'Gamma stars', 'Beta rivers', 'Alpha gardens']);
    // Recent searches, newest first, offered in the empty focused box.
    await box.fill('');
    await box.focus();
    await expect
      .poll(() => page.getByTestId('search-recent').locator('button').allTextContents())
      .toEqual(['用户', '#travel']);

    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  test('? on the list shows its keys in the reader’s language; Esc closes it; typed in the search box it is a character', async () => {
    const user = await app.user();
    await makeNote(user.user, 'Gamma harbours', 'Boats at rest.');
    for (const [locale, title, next] of [
      ['en-US', 'Keyboard shortcuts', 'Next note'],
      ['zh-CN', '键盘快捷键', '下一条'],
    ] as const) {
      const { page, context, errors } = await app.signIn('/', { user, locale });
      await page.getByTestId('note-item').first().waitFor();
      // The list's keys arrive just after its first render: pressed until they answer (with
      // the sheet open, `?` does nothing more).
      const sheet = page.getByTestId('shortcut-sheet');
      await expect
        .poll(
          async () => {
            await page.keyboard.press('?');
            return sheet.count();
          },
          { timeout: UI_WAIT_MS },
        )
        .toBe(1);
      await expect.poll(() => sheet.getByRole('heading').textContent(), { timeout: UI_WAIT_MS }).toBe(title);
      const rows = await sheet.getByTestId('shortcut-row').allTextContents();
      expect(rows).toHaveLength(6);
      expect(rows[0]).toBe(`↓${next}`);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });
      // In the search box `?` is typed, not a shortcut.
      const search = page.getByRole('searchbox');
      await search.click();
      await page.keyboard.press('?');
      await expect(search.inputValue()).resolves.toBe('?');
      expect(await sheet.count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  test('an empty list says what is empty: a search, a folder, the trash, a view, the whole library', async () => {
    const user = await app.user();
    await makeNote(user.user, 'Delta harbours', 'Boats at rest.');
    const folder = await user.caller.folders.create({ name: 'Empty shelf' });
    const cases: [path: string, kind: string, title: string, body: RegExp][] = [
      ['/?kw=zebra', 'search', 'Nothing matches “zebra”', /other words/],
      [`/?fid=${folder.id}`, 'folder', 'This folder is empty', /Move to folder/],
      ['/?nav=trash', 'trash', 'The trash is empty', /30 days/],
      ['/?nav=later', 'view', 'Nothing in Later', /this view/],
    ];
    const { page, context, errors } = await app.signIn(undefined, { user });
    const empty = page.getByTestId('note-list-empty');
    for (const [path, kind, title, body] of cases) {
      await page.goto(app.url(path));
      await expect.poll(() => empty.getAttribute('data-empty'), { timeout: UI_WAIT_MS }).toBe(kind);
      expect({ path, title: await empty.locator('h2').textContent() }).toEqual({ path, title });
      expect(await empty.locator('p').textContent()).toMatch(body);
    }
    await context.close();
    // In Chinese; and a library with nothing in it is the one that says nothing is saved yet.
    const zh = await app.signIn('/?nav=trash', { user, locale: 'zh-CN' });
    const zhEmpty = zh.page.getByTestId('note-list-empty');
    await expect
      .poll(() => zhEmpty.locator('h2').textContent(), { timeout: UI_WAIT_MS })
      .toBe('回收站是空的');
    await zh.context.close();
    // In Arabic the number is written as the language writes numbers (Intl), as the counts are.
    const ar = await app.signIn('/?nav=trash', { user, locale: 'ar' });
    const thirty = await ar.page.evaluate(() => new Intl.NumberFormat('ar').format(30));
    await expect
      .poll(() => ar.page.getByTestId('note-list-empty').locator('p').textContent(), { timeout: UI_WAIT_MS })
      .toContain(` ${thirty} `);
    await ar.context.close();
    const fresh = await app.signIn('/', { user: await app.user() });
    await expect
      .poll(() => fresh.page.getByTestId('note-list-empty').getAttribute('data-empty'), {
        timeout: UI_WAIT_MS,
      })
      .toBe('library');
    await fresh.context.close();
    expect(errors).toEqual([]);
  });

  test('a 360 px phone: the drawer navigates, the search folds into an icon', async () => {
    const user = await app.user();
    await makeNote(user.user, 'Phone one', 'Small screens.', { flow: Flow.later });
    await makeNote(user.user, 'Phone two', 'Still small.');
    const { context, page, errors } = await app.signIn('/', { user, viewport: { width: 360, height: 740 } });
    await expectTitles(page, ['Phone two', 'Phone one']);
    expect(await page.getByTestId('search-input').isVisible()).toBe(false);
    await page.getByTestId('search-toggle').click();
    await page.getByTestId('search-input').waitFor({ state: 'visible' });
    await page.getByTestId('open-drawer').click();
    await page.locator('.drawer').locator('[data-nav="later"]').click();
    await expectTitles(page, ['Phone one']);
    expect(await page.locator('.drawer').count()).toBe(0);
    // The note list's own parts fit the 360 px screen.
    for (const part of ['.notes-header', '.notes-bar', '[data-testid="note-list"]']) {
      const box = await page.locator(part).boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(360);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  test('10,000 notes: only a window of rows exists, and scrolling reaches the end', async () => {
    const user = await app.user();
    await insertManyNotes(app.deps, user.user.id, 10_000, 'Bulk page');
    const { context, page, errors } = await app.signIn('/', { user });
    await page.locator('[data-testid="note-item"][data-index="0"]').waitFor();
    const list = page.getByTestId('note-list');
    // Keep scrolling to the bottom until every chunk has loaded; at every step only a window of
    // rows exists. The list's own attributes say when it is complete, however long that takes.
    await waitFor(
      async () => {
        if ((await list.getAttribute('data-complete')) !== null) return true;
        expect(await page.getByTestId('note-item').count()).toBeLessThan(200);
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return undefined;
      },
      SCROLL_TO_END_MS,
      'every chunk of the list to load',
    );
    expect(await list.getAttribute('data-count')).toBe('10000');
    const last = page.locator('[data-testid="note-item"][data-index="9999"]');
    await waitFor(
      async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return (await last.count()) > 0 ? true : undefined;
      },
      UI_WAIT_MS,
      'the last row to be rendered',
    );
    expect(
      await page.locator('[data-testid="note-item"][data-index="9999"] .note-item-title').textContent(),
    ).toBe('Bulk page 10000');
    expect(await page.getByTestId('note-item').count()).toBeLessThan(200);

    // A selection's bar, at the end of the list: below the last row (a click on the row reaches
    // it), and within the list's column, clear of the sidebar.
    await last.locator('[data-testid="note-select"]').check();
    const bar = page.getByTestId('bulk-bar');
    await bar.locator('[data-count="1"]').waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const box = async (selector: string) => page.locator(selector).first().boundingBox();
    await expect
      .poll(async () => {
        const [row, barBox] = [await last.boundingBox(), await bar.boundingBox()];
        return row && barBox ? barBox.y >= row.y + row.height : false;
      })
      .toBe(true);
    const [barBox, sidebar, listBox] = [
      await bar.boundingBox(),
      await box('.sidebar'),
      await list.boundingBox(),
    ];
    expect(barBox && sidebar && barBox.x >= sidebar.x + sidebar.width).toBe(true);
    expect(barBox && listBox && barBox.x + barBox.width <= listBox.x + listBox.width + 1).toBe(true);
    // Away from the end, the bar stays at the foot of the screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect
      .poll(async () => {
        const at = await bar.boundingBox();
        const height = await page.evaluate(() => window.innerHeight);
        return at ? at.y + at.height <= height && at.y + at.height > height - 64 : false;
      })
      .toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
