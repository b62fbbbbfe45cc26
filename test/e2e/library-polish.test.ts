import type { Page, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { describeRange } from '../../src/anchoring/index.ts';
import { STORAGE_KEYS } from '../../src/constants.ts';
import { ClipStatus, CoreType, HighlightSort, SortOrder } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { e2eFixture, type SignedInUser } from '../helpers/e2e.ts';
import { makeClippedNote } from '../helpers/notes.ts';
import { article, html } from '../helpers/site.ts';

const UI_WAIT = { timeout: 20_000 };

const PARAGRAPHS = [
  'The site sends a proper article with a real body. This paragraph is long enough for the parser to keep.',
  'A second paragraph follows with more words, so that the extractor sees a real body and not a teaser.',
];

const app = e2eFixture({
  workers: true,
  site: Object.fromEntries(
    [1, 2, 3, 4].map((n) => [`/article-${n}`, html(article(`Article ${n}`, PARAGRAPHS))]),
  ),
  browser: { clipboard: true },
});

/** The save requests (notes.clip, one or a batch of several). */
const SAVE_REQUEST = /\/trpc\/notes\.clip(?:,notes\.clip)*\?/;

/**
 * Holds every save the page sends until `release`, as a slow server would, and counts how many
 * saves were in flight at once (a batched request carries several).
 */
async function holdSaves(page: Page) {
  let gate: Promise<void> | null = null;
  let open!: () => void;
  gate = new Promise<void>((resolve) => (open = resolve));
  const state = { inFlight: 0, most: 0, seen: 0 };
  await page.route(SAVE_REQUEST, async (route: Route) => {
    const saves = (new URL(route.request().url()).pathname.split('/').pop() ?? '').split(',').length;
    state.inFlight += saves;
    state.seen += saves;
    state.most = Math.max(state.most, state.inFlight);
    if (gate) await gate;
    const response = await route.fetch();
    state.inFlight -= saves;
    await route.fulfill({ response });
  });
  return {
    state,
    release() {
      gate = null;
      open();
    },
  };
}

function queueItem(page: Page, url: string) {
  return page.locator(`[data-testid="save-queue-item"][data-url="${url}"]`);
}

async function paste(page: Page, text: string) {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.keyboard.press('Control+V');
}

describe('saving several addresses in a row', () => {
  test('each gets its own entry, saved two at a time while the box stays free; nothing typed is lost', async () => {
    const { context, page, errors, user } = await app.signIn('/');
    await page.getByTestId('save-url-input').waitFor();
    const saves = await holdSaves(page);
    const [one, two, three, four] = [1, 2, 3, 4].map((n) => `${app.site.origin}/article-${n}`) as [
      string,
      string,
      string,
      string,
    ];
    const input = page.getByTestId('save-url-input');

    // The first save hangs; the box is cleared and usable at once.
    await input.fill(one);
    await input.press('Enter');
    await queueItem(page, one).waitFor();
    expect(await input.inputValue()).toBe('');
    expect(await input.isEditable()).toBe(true);
    expect(await page.getByTestId('save-url-submit').isEnabled()).toBe(true);

    // Two more pasted at once, one per line, with a word that is no address.
    await input.focus();
    await paste(page, `${two}\n${three}\nsomewhere`);
    expect(await input.inputValue()).toBe(`${two} ${three} somewhere`);
    await input.press('Enter');
    // Only the addresses left the box; the word stays, with the error.
    expect(await input.inputValue()).toBe('somewhere');
    await page.getByTestId('save-url-error').waitFor();
    expect(await input.getAttribute('aria-invalid')).toBe('true');

    // Three entries, newest first: two being saved, the third waiting its turn.
    await expect
      .poll(() => page.getByTestId('save-queue-item').evaluateAll((els) => els.map((e) => e.dataset.state)))
      .toEqual(['waiting', 'saving', 'saving']);
    expect(
      await page.getByTestId('save-queue-item').evaluateAll((els) => els.map((e) => e.dataset.url)),
    ).toEqual([three, two, one]);
    expect(await queueItem(page, three).getByTestId('save-queue-status').textContent()).toBe('Waiting…');
    expect(await queueItem(page, one).getByTestId('save-queue-status').textContent()).toBe('Saving…');
    expect(saves.state.most).toBe(2);

    // The server answers: all three are saved, each a link to its note, never more than two at once.
    saves.release();
    for (const url of [one, two, three]) {
      await page
        .locator(`[data-testid="save-queue-item"][data-url="${url}"][data-state="saved"]`)
        .waitFor(UI_WAIT);
      expect(await queueItem(page, url).getByTestId('save-queue-status').textContent()).toBe('Saved');
      expect(await queueItem(page, url).getByRole('link', { name: url }).getAttribute('href')).toMatch(
        /^\/\?pi=[\w-]+&vs=article$/,
      );
    }
    expect(saves.state.most).toBe(2);
    expect(saves.state.seen).toBe(3);
    // The articles are clipped and the list shows them.
    for (const n of [1, 2, 3]) {
      await page
        .locator(`[data-testid="note-item"][data-clip-status="${ClipStatus.done}"]`)
        .filter({ hasText: `Article ${n}` })
        .waitFor(UI_WAIT);
    }
    expect(await input.inputValue()).toBe('somewhere');

    // An answer lost on the way back: the entry fails with the reason and Retry; retrying finds
    // the note the first try made, says "Saved", and the library holds it once.
    await page.route(
      SAVE_REQUEST,
      async (route) => {
        await route.fetch();
        await route.abort('connectionreset');
      },
      { times: 1 },
    );
    await input.fill(four);
    await input.press('Enter');
    const failed = page.locator(`[data-testid="save-queue-item"][data-url="${four}"][data-state="failed"]`);
    await failed.waitFor(UI_WAIT);
    expect(await failed.getByTestId('save-queue-status').textContent()).toBe(
      'Network error. Check your connection.',
    );
    await failed.getByTestId('save-queue-retry').click();
    await page
      .locator(`[data-testid="save-queue-item"][data-url="${four}"][data-state="saved"]`)
      .waitFor(UI_WAIT);
    const listed = await user.caller.notes.list({ nav: 'all', limit: 50 });
    expect(listed.items.filter((note) => note.url === four)).toHaveLength(1);

    // Saving one again says it is already there; an entry can be dismissed.
    await input.fill(one);
    await input.press('Enter');
    const known = page.locator(`[data-testid="save-queue-item"][data-url="${one}"][data-state="known"]`);
    await known.waitFor(UI_WAIT);
    expect(await known.getByTestId('save-queue-status').textContent()).toBe(
      'This page is already in your library.',
    );
    await known.getByRole('button', { name: 'Remove from list' }).click();
    await expect.poll(() => known.count()).toBe(0);
    expect(await page.getByTestId('save-queue-item').count()).toBe(4);
    expect(errors).toEqual([]);
    await context.close();
  });
});

const TEXT =
  'First comes the opening line. Then a middle sentence follows. At last the closing words arrive.';

async function highlight(user: SignedInUser, noteId: string, phrase: string, annotation?: string) {
  const start = TEXT.indexOf(phrase);
  await user.caller.highlights.create({
    id: newId(),
    noteId,
    coreType: CoreType.highlight,
    selectors: describeRange(TEXT, start, start + phrase.length),
    ...(annotation && { annotation }),
  });
}

function listedHighlights(page: Page) {
  return page
    .getByTestId('highlight-item')
    .evaluateAll((items) =>
      items.map(
        (item) =>
          `${item.querySelector('.highlight-item-note')?.textContent}: ${item.querySelector('.highlight-item-text')?.textContent}`,
      ),
    );
}

describe('sorting by position in article', () => {
  test('the highlight list in article order: by note, newest saved first, each in reading order; the note list does not offer it', async () => {
    const user = await app.user();
    const older = await makeClippedNote(app.deps, user.user.id, { title: 'Older note', text: TEXT });
    const newer = await makeClippedNote(app.deps, user.user.id, { title: 'Newer note', text: TEXT });
    // Made out of order, interleaved across the notes.
    await highlight(user, older.id, 'closing words');
    await highlight(user, newer.id, 'middle sentence');
    await highlight(user, older.id, 'opening line');
    await highlight(user, newer.id, 'closing words');
    await highlight(user, newer.id, 'opening line');
    await highlight(user, older.id, 'middle sentence');

    const { context, page, errors } = await app.signIn('/highlights', { user });
    await page.getByTestId('highlight-item').first().waitFor(UI_WAIT);
    expect((await listedHighlights(page))[0]).toBe('Older note: middle sentence');

    const sort = page.getByTestId('highlight-sort');
    expect(await sort.locator('option:checked').textContent()).toBe('Newest first');
    await sort.selectOption({ label: 'By position in article' });
    const inArticleOrder = [
      'Newer note: opening line',
      'Newer note: middle sentence',
      'Newer note: closing words',
      'Older note: opening line',
      'Older note: middle sentence',
      'Older note: closing words',
    ];
    await expect.poll(() => listedHighlights(page), UI_WAIT).toEqual(inArticleOrder);
    expect(new URL(page.url()).search).toBe(`?sort=${HighlightSort.positionInArticle}`);
    await page.reload();
    await expect.poll(() => listedHighlights(page), UI_WAIT).toEqual(inArticleOrder);

    // Notes have no place in an article: the note list offers the other five, and a stored
    // "by position" lists newest first.
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
      STORAGE_KEYS.sort,
      SortOrder.positionInArticle,
    ] as const);
    await page.goto(app.url('/'));
    const noteSort = page.getByTestId('sort-select');
    await noteSort.waitFor(UI_WAIT);
    expect(
      await noteSort.locator('option').evaluateAll((options) => options.map((o) => o.textContent)),
    ).toEqual([
      'Newest first',
      'Oldest first',
      'Recently updated',
      'Most highlights',
      'Least recently updated',
    ]);
    expect(await noteSort.inputValue()).toBe(SortOrder.newestFirst);
    await expect
      .poll(() => page.getByTestId('note-item').evaluateAll((items) => items.map((i) => i.dataset.noteId)))
      .toEqual([newer.id, older.id]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

function saveStatus(page: Page, value: string) {
  return page.locator(`[data-testid="daily-save-status"][data-status="${value}"]`);
}

describe('task lists', () => {
  test('a daily note’s tasks are checkboxes that tick the exact line, by click or Space, and stay ticked', async () => {
    const { context, page, user, errors } = await app.signIn('/daily');
    await saveStatus(page, 'saved').waitFor(UI_WAIT);
    const source =
      'Plan for today\n\n- [ ] Water the plants\n- [ ] Call Ann\n\nNotes: - [ ] is how a task starts.';
    await page.getByTestId('daily-textarea').fill(source);
    await expect.poll(async () => (await user.caller.daily.get({})).text, UI_WAIT).toBe(source);

    await page.getByTestId('daily-preview-toggle').click();
    const preview = page.getByTestId('daily-preview');
    const boxes = preview.getByRole('checkbox');
    await expect.poll(() => boxes.count(), UI_WAIT).toBe(2);
    expect(
      await boxes.evaluateAll((els) =>
        els.map((e) => [(e as HTMLInputElement).checked, (e as HTMLInputElement).disabled]),
      ),
    ).toEqual([
      [false, false],
      [false, false],
    ]);
    await preview.getByRole('checkbox', { name: 'Call Ann' }).click();
    const ticked = source.replace('- [ ] Call Ann', '- [x] Call Ann');
    await expect.poll(async () => (await user.caller.daily.get({})).text, UI_WAIT).toBe(ticked);
    await saveStatus(page, 'saved').waitFor(UI_WAIT);

    await page.reload();
    await saveStatus(page, 'saved').waitFor(UI_WAIT);
    expect((await page.getByTestId('daily-textarea').inputValue()).split('\n')[3]).toBe('- [x] Call Ann');
    await page.getByTestId('daily-preview-toggle').click();
    await expect.poll(() => boxes.count(), UI_WAIT).toBe(2);
    expect(await preview.getByRole('checkbox', { name: 'Water the plants' }).isChecked()).toBe(false);
    expect(await preview.getByRole('checkbox', { name: 'Call Ann' }).isChecked()).toBe(true);

    // From the keyboard: Space ticks the focused task, and the focus stays on it.
    await preview.getByRole('checkbox', { name: 'Water the plants' }).focus();
    await page.keyboard.press('Space');
    await expect
      .poll(async () => (await user.caller.daily.get({})).text, UI_WAIT)
      .toBe(ticked.replace('- [ ] Water the plants', '- [x] Water the plants'));
    expect(await preview.getByRole('checkbox', { name: 'Water the plants' }).isChecked()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.closest('label')?.textContent?.trim())).toBe(
      'Water the plants',
    );
    await page.keyboard.press('Space');
    await expect.poll(async () => (await user.caller.daily.get({})).text, UI_WAIT).toBe(ticked);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('an annotation’s task list shows read-only checkboxes', async () => {
    const user = await app.user();
    const note = await makeClippedNote(app.deps, user.user.id, { title: 'Tasks note', text: TEXT });
    await highlight(user, note.id, 'opening line', 'To do:\n\n- [ ] Reread the chapter\n- [x] Quote it');
    const { context, page, errors } = await app.signIn('/highlights', { user });
    const annotation = page.locator('[data-testid="annotation"][data-rendered="true"]');
    await annotation.waitFor(UI_WAIT);
    const boxes = annotation.getByRole('checkbox');
    expect(await boxes.count()).toBe(2);
    expect(await annotation.getByRole('checkbox', { name: 'Reread the chapter' }).isChecked()).toBe(false);
    expect(await annotation.getByRole('checkbox', { name: 'Quote it' }).isChecked()).toBe(true);
    expect(await boxes.evaluateAll((els) => els.every((e) => (e as HTMLInputElement).disabled))).toBe(true);
    expect(await annotation.textContent()).not.toContain('[x]');
    expect(errors).toEqual([]);
    await context.close();
  });
});
