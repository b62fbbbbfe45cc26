// The colour theme page in Chromium: the six highlight colours change the preview at once and the
// reader, the highlight list and the tooltip after a reload; the text tooltip style chosen here is
// what the reader's selection does, on another browser too; the theme applies and persists; reset.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { User } from '../../server/db/entities/index.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { CoreType, TextTooltipStyle } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { e2eFixture, type SignedInUser } from '../helpers/e2e.ts';
import { makeClippedNote } from '../helpers/notes.ts';

const app = e2eFixture();

/** Waits for the UI: far beyond what a loaded machine needs (expect.poll's default is 1 s). */
const UI_WAIT = { timeout: 20_000 };

const TEXT =
  'Margin keeps what you read. A highlighted sentence sits in the middle of this paragraph. The last sentence closes it.';
const PHRASE = 'A highlighted sentence';
const FREE = 'The last sentence';

/** A note with one highlight in colour slot 3 over PHRASE. */
async function noteWithHighlight(user: SignedInUser) {
  const note = await makeClippedNote(app.deps, user.user.id, { title: 'Colours', text: TEXT });
  const at = TEXT.indexOf(PHRASE);
  await user.caller.highlights.create({
    id: newId(),
    noteId: note.id,
    coreType: CoreType.highlight,
    slotId: 3,
    selectors: describeRange(TEXT, at, at + PHRASE.length),
  });
  return note.id;
}

/** A computed style property of the element a test id names. */
const styleOf = (page: Page, testId: string, property: string) =>
  page.evaluate(
    ([id, name]) =>
      getComputedStyle(document.querySelector(`[data-testid="${id}"]`) as Element).getPropertyValue(
        name as string,
      ),
    [testId, property],
  );

/** What ::highlight(name) paints over the article's text (the reader's Highlight API painter). */
const highlightBackground = (page: Page, name: string) =>
  page.evaluate(
    (highlight) =>
      getComputedStyle(document.querySelector('.reader-content p') as Element, `::highlight(${highlight})`)
        .backgroundColor,
    name,
  );

/** Selects `phrase` in the article and ends the selection with Shift, as a keyboard user would. */
async function selectInArticle(page: Page, phrase: string): Promise<void> {
  await page.evaluate((wanted) => {
    const paragraph = document.querySelector('.reader-content p') as HTMLElement;
    const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const at = node.data.indexOf(wanted);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      document.getSelection()?.removeAllRanges();
      document.getSelection()?.addRange(range);
      return;
    }
    throw new Error(`not in the article: ${wanted}`);
  }, phrase);
  await page.keyboard.press('Shift');
}

/** Opens the reader on a note: the page itself carries the account's settings (no request to wait for). */
async function openReader(page: Page, noteId: string): Promise<void> {
  await page.goto(app.url(`/?pi=${noteId}&vs=article`));
  await page.getByTestId('reader-content').waitFor();
}

const BLUE_LIGHT = 'rgba(100, 181, 246, 0.22)';
const RED_LIGHT = 'rgba(229, 57, 53, 0.22)';
const RED_STRONG = 'rgba(229, 57, 53, 0.596)';

describe('the colour theme page in Chromium', () => {
  test('c3 changed: the preview at once, saved; the reader, the list and the tooltip after a reload; Default puts it back', async () => {
    const user = await app.user();
    const noteId = await noteWithHighlight(user);
    const { page, context, errors } = await app.signIn('/personSetting/color', { user });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Colour theme');
    await page.getByTestId('colour-preview').waitFor();
    expect(await styleOf(page, 'preview-light-3', 'background-color')).toBe(BLUE_LIGHT);

    await page.getByTestId('colour-hex-3').fill('#e53935');
    // At once, before anything is saved: light (backgrounds) and strong (lines) of slot 3.
    await expect.poll(() => styleOf(page, 'preview-light-3', 'background-color'), UI_WAIT).toBe(RED_LIGHT);
    expect(await styleOf(page, 'preview-strong-3', 'text-decoration-color')).toBe(RED_STRONG);
    expect(await styleOf(page, 'preview-light-2', 'background-color')).toBe('rgba(129, 199, 132, 0.22)');
    await expect.poll(async () => (await user.caller.settings.get()).c3, UI_WAIT).toBe('#E53935');
    expect(await page.getByTestId('colour-default-3').isEnabled()).toBe(true);

    // The picker does the same for slot 5.
    await page.getByTestId('colour-input-5').fill('#00aa00');
    await expect
      .poll(() => styleOf(page, 'preview-light-5', 'background-color'), UI_WAIT)
      .toBe('rgba(0, 170, 0, 0.22)');
    await expect.poll(() => page.getByTestId('colour-hex-5').inputValue(), UI_WAIT).toBe('#00AA00');
    await expect.poll(async () => (await user.caller.settings.get()).c5, UI_WAIT).toBe('#00AA00');

    // A hex code that is not one is said so and not saved.
    await page.getByTestId('colour-hex-4').fill('#12');
    await page.getByText('Six hex digits after #, like #64B5F6.').waitFor();
    expect(await page.getByTestId('colour-hex-4').getAttribute('aria-invalid')).toBe('true');
    expect((await user.caller.settings.get()).c4).toBeNull();

    // The reader, after a reload: the highlight in slot 3 is painted red; the tooltip's third dot too.
    await page.goto(app.url(`/?pi=${noteId}&vs=article`));
    await page.getByTestId('reader-content').waitFor();
    await page.reload();
    await page.getByTestId('reader-content').waitFor();
    await expect.poll(() => highlightBackground(page, 'margin-hl-3-1'), UI_WAIT).toBe(RED_LIGHT);
    await selectInArticle(page, FREE);
    await page.getByTestId('selection-tooltip').waitFor();
    const dot = await page.evaluate(
      () =>
        getComputedStyle(document.querySelector('[data-testid="tooltip-colour-3"] .colour-dot') as Element)
          .backgroundColor,
    );
    expect(dot).toBe(RED_STRONG);
    // Its name follows: no longer "Blue".
    expect(await page.getByTestId('tooltip-colour-3').getAttribute('aria-label')).toBe('Colour 3 (3)');
    expect(await page.getByTestId('tooltip-colour-1').getAttribute('aria-label')).toBe('Yellow (1)');

    // The highlight list draws it in the same colour.
    await page.goto(app.url('/highlights'));
    const item = page.getByTestId('highlight-item').first();
    await item.waitFor();
    await expect
      .poll(() => item.evaluate((li) => getComputedStyle(li).borderInlineStartColor), UI_WAIT)
      .toBe(RED_STRONG);

    // Default: back to blue in the preview and in the account.
    await page.goto(app.url('/personSetting/color'));
    await page.getByTestId('colour-default-3').click();
    await expect.poll(() => styleOf(page, 'preview-light-3', 'background-color'), UI_WAIT).toBe(BLUE_LIGHT);
    await expect.poll(async () => (await user.caller.settings.get()).c3, UI_WAIT).toBeNull();
    await expect.poll(() => page.getByTestId('colour-hex-3').inputValue()).toBe('#64B5F6');
    expect(await page.getByTestId('colour-default-3').isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the tooltip style chosen here is what the reader does with a selection, in another browser too', async () => {
    const user = await app.user();
    const noteId = await noteWithHighlight(user);
    const { page, context } = await app.signIn('/personSetting/color', { user });
    const choice = (style: TextTooltipStyle) => page.getByTestId(`tooltip-style-choice-${style}`);
    await expect(choice(TextTooltipStyle.moreTools).getByRole('radio').isChecked()).resolves.toBe(true);
    // A picture of the tooltip: its buttons take no focus and no clicks.
    await expect(
      page.getByTestId('preview-tooltip').evaluate((el) => (el as HTMLElement).inert),
    ).resolves.toBe(true);

    // Default colour: the preview shows one button; the account keeps it.
    await choice(TextTooltipStyle.defaultColour).click();
    await expect
      .poll(() => page.getByTestId('preview-demo').getAttribute('data-tooltip-style'), UI_WAIT)
      .toBe('3');
    await expect(page.getByTestId('preview-tooltip').textContent()).resolves.toBe('Highlight');
    await expect
      .poll(async () => (await user.caller.settings.get()).textTooltipStyle, UI_WAIT)
      .toBe(TextTooltipStyle.defaultColour);
    await context.close();

    // A browser that never saw the choice: the reader's tooltip has the one button, which highlights in colour 1.
    const other = await app.signIn(undefined, { user });
    await openReader(other.page, noteId);
    await selectInArticle(other.page, FREE);
    const tooltip = other.page.getByTestId('selection-tooltip');
    await tooltip.waitFor();
    expect(await tooltip.getAttribute('data-tooltip-style')).toBe('3');
    expect(await tooltip.getByRole('button').count()).toBe(1);
    await tooltip.getByTestId('tooltip-colour-1').click();
    await expect
      .poll(
        async () => (await user.caller.highlights.byNote({ id: noteId })).map((h) => h.slotId).sort(),
        UI_WAIT,
      )
      .toEqual([1, 3]);

    // Auto highlight, chosen on this browser's page: a selection is highlighted with no tooltip.
    await other.page.goto(app.url('/personSetting/color'));
    await other.page.getByTestId(`tooltip-style-choice-${TextTooltipStyle.autoHighlight}`).click();
    await expect
      .poll(() => other.page.getByTestId('preview-note').textContent(), UI_WAIT)
      .toContain('highlighted in colour 1');
    await expect
      .poll(async () => (await user.caller.settings.get()).textTooltipStyle, UI_WAIT)
      .toBe(TextTooltipStyle.autoHighlight);
    await openReader(other.page, noteId);
    await selectInArticle(other.page, 'Margin keeps');
    await expect
      .poll(async () => (await user.caller.highlights.byNote({ id: noteId })).length, UI_WAIT)
      .toBe(3);
    expect(await other.page.getByTestId('selection-tooltip').count()).toBe(0);

    // Hide: no tooltip; keys 1–6 still highlight.
    await user.caller.settings.update({ textTooltipStyle: TextTooltipStyle.hide });
    await openReader(other.page, noteId);
    await selectInArticle(other.page, 'closes it');
    await other.page.keyboard.press('2');
    await expect
      .poll(
        async () => (await user.caller.highlights.byNote({ id: noteId })).map((h) => h.slotId).sort(),
        UI_WAIT,
      )
      .toEqual([1, 1, 2, 3]);
    expect(await other.page.getByTestId('selection-tooltip').count()).toBe(0);
    await other.context.close();
  });

  test('the theme: applied at once, kept on reload, on the account and in a new browser; follow system follows it', async () => {
    const user = await app.user();
    const { page, context } = await app.signIn('/personSetting/color', { user, colorScheme: 'light' });
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const storedTheme = async () =>
      (await app.deps.orm.em.fork().findOneOrFail(User, { id: user.user.id })).theme ?? null;
    await expect(page.getByTestId('theme-option-system').getByRole('radio').isChecked()).resolves.toBe(true);
    expect(await theme()).toBe('light');

    await page.getByTestId('theme-option-y').click();
    await expect.poll(theme).toBe('dark');
    expect(await background()).toBe('rgb(12, 12, 12)');
    expect(await page.getByTestId('theme-toggle').getAttribute('data-theme-choice')).toBe('y');
    await expect.poll(storedTheme, UI_WAIT).toBe('y');
    await page.reload();
    await page.getByTestId('colour-preview').waitFor();
    expect(await theme()).toBe('dark');
    await expect(page.getByTestId('theme-option-y').getByRole('radio').isChecked()).resolves.toBe(true);

    // Another browser, with nothing stored and a light system: the account's dark.
    const other = await app.signIn('/personSetting/color', { user, colorScheme: 'light' });
    await expect
      .poll(() => other.page.evaluate(() => document.documentElement.dataset.theme), UI_WAIT)
      .toBe('dark');

    // Light, then follow system (null on the account) in a dark system.
    await page.getByTestId('theme-option-n').click();
    await expect.poll(theme).toBe('light');
    expect(await background()).toBe('rgb(240, 240, 240)');
    await expect.poll(storedTheme, UI_WAIT).toBe('n');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByTestId('theme-option-system').click();
    await expect.poll(theme).toBe('dark');
    await expect.poll(storedTheme, UI_WAIT).toBeNull();
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(theme).toBe('light');

    // The top bar's toggle saves to the account as well.
    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => page.getByTestId('theme-toggle').getAttribute('data-theme-choice')).toBe('n');
    await expect.poll(storedTheme, UI_WAIT).toBe('n');
    await context.close();
    await other.context.close();
  });

  test('reset puts the colours and the tooltip style back after asking, and keeps the theme', async () => {
    const user = await app.user();
    await user.caller.settings.update({
      theme: 'y',
      textTooltipStyle: TextTooltipStyle.hide,
      c1: '#000000',
      c6: '#FFFFFF',
    });
    const { page, context } = await app.signIn('/personSetting/color', { user });
    await expect.poll(() => page.getByTestId('colour-hex-1').inputValue(), UI_WAIT).toBe('#000000');
    await page.getByTestId('colour-theme-reset').click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await user.caller.settings.get()).c1).toBe('#000000');

    await page.getByTestId('colour-theme-reset').click();
    await confirm.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => page.getByTestId('colour-hex-1').inputValue(), UI_WAIT).toBe('#FDD835');
    await expect.poll(() => page.getByTestId('colour-hex-6').inputValue()).toBe('#BA68C8');
    await expect(
      page.getByTestId(`tooltip-style-choice-${TextTooltipStyle.moreTools}`).getByRole('radio').isChecked(),
    ).resolves.toBe(true);
    await expect(user.caller.settings.get()).resolves.toMatchObject({
      theme: 'y',
      textTooltipStyle: null,
      c1: null,
      c6: null,
    });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await context.close();
  });
});
