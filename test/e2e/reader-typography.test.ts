// The reader's typography panel ("Aa"), focus mode with its keys (f, Esc, j / k, h, ?), and the
// action bar on a phone, in Chromium.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { Note, NoteContent } from '../../server/db/entities/index.ts';
import { urlHash } from '../../server/domain/notes/clip.service.ts';
import { describeRange } from '../../src/anchoring/index.ts';
import { ClipStatus, CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { dragSelect } from '../helpers/drag-select.ts';
import { e2eFixture, type SignedInUser } from '../helpers/e2e.ts';

/** Waits for the UI: far beyond what a loaded machine needs (expect.poll's default is 1 s). */
const UI_WAIT = { timeout: 20_000 };
const PHONE = { width: 360, height: 740 };

const app = e2eFixture({ browser: { acceptDownloads: true, clipboard: true } });

const ENGLISH = Array.from(
  { length: 40 },
  (_, i) =>
    `Paragraph ${i + 1} walks slowly through the reading room, where marks in the margin wait for someone to come back to them and think the thought again.`,
);

const CHINESE = Array.from(
  { length: 6 },
  (_, i) =>
    `第${i + 1}段：我们一起阅读这篇文章，然后在页边做笔记，慢慢地把想法记下来。“读书的时候要有耐心”，把重要的句子划出来，日后再回来看一看，会发现新的意思。`,
);

const JAPANESE = Array.from(
  { length: 6 },
  (_, i) =>
    `第${i + 1}段落：本を読むときは、余白にメモを書きながら、ゆっくりと考えを深めていきます。「大切な文」には線を引き、あとで読み返すと新しい意味が見えてきます。`,
);

const KOREAN = Array.from(
  { length: 6 },
  (_, i) => `${i + 1}번째 문단: 책을 읽을 때에는 여백에 메모를 하면서 천천히 생각을 정리합니다.`,
);

/** A clipped article made straight in the database (no worker): one <p> per paragraph. */
async function article(
  user: SignedInUser,
  paragraphs: string[],
  { title = 'The reading room', lang = 'en' as string | null } = {},
): Promise<{ noteId: string; text: string }> {
  const em = app.deps.orm.em.fork();
  const url = `https://articles.example/${newId()}`;
  const text = paragraphs.join('\n\n');
  const note = em.create(Note, {
    id: newId(),
    user: user.user.id,
    url,
    urlHash: urlHash(url),
    title,
    lang,
    clipStatus: ClipStatus.done,
    tags: [],
  });
  em.create(NoteContent, { note, contentHtml: paragraphs.map((p) => `<p>${p}</p>`).join('\n'), text });
  await em.flush();
  return { noteId: note.id, text };
}

async function highlight(user: SignedInUser, noteId: string, text: string, phrase: string): Promise<string> {
  const at = text.indexOf(phrase);
  if (at < 0) throw new Error(`not in the article: ${phrase}`);
  const id = newId();
  await user.caller.highlights.create({
    id,
    noteId,
    coreType: CoreType.highlight,
    selectors: describeRange(text, at, at + phrase.length),
  });
  return id;
}

/** What the article's first paragraph is set in. */
function paragraphStyle(page: Page) {
  return page.evaluate(() => {
    const p = document.querySelector('.reader-content p') as HTMLElement;
    const style = getComputedStyle(p);
    return {
      fontSize: style.fontSize,
      lineHeight: style.lineHeight,
      fontFamily: style.fontFamily,
      textAlign: style.textAlign,
      columnWidth: Math.round((document.querySelector('.reader-content') as HTMLElement).clientWidth),
    };
  });
}

/** The element's box lies wholly inside the viewport. */
async function onScreen(page: Page, testId: string, within = page.locator('body')): Promise<boolean> {
  const box = await within.getByTestId(testId).boundingBox();
  const view = page.viewportSize();
  if (!box || !view) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= view.width && box.y + box.height <= view.height;
}

const chromeShown = (page: Page) =>
  page.evaluate(() =>
    ['.sidebar', '.topbar', '[data-testid="reader-back"]', '[data-testid="reader-typography"]'].map(
      (selector) => {
        const element = document.querySelector(selector) as HTMLElement | null;
        return element ? element.checkVisibility() : false;
      },
    ),
  );

describe('typography (Chromium)', () => {
  test('the "Aa" panel sets font, size, line height, width and justification at once, keeps them with the account for the next first render, and resets them', async () => {
    const user = await app.user();
    const { noteId } = await article(user, ENGLISH);
    const { context, page, errors } = await app.signIn(`/?pi=${noteId}`, { user });
    await page.getByTestId('reader-content').waitFor();
    expect(await paragraphStyle(page)).toMatchObject({
      fontSize: '19px',
      lineHeight: `${19 * 1.75}px`,
      textAlign: 'start',
      columnWidth: 680,
    });
    expect(await page.getByTestId('reader').getAttribute('data-font')).toBe('system');

    // Opened and driven from the keyboard: the first stop is the chosen font, arrows pick another.
    await page.getByTestId('reader-typography').focus();
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('typography-panel');
    await panel.waitFor();
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).value), UI_WAIT)
      .toBe('system');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByTestId('reader').getAttribute('data-font'), UI_WAIT).toBe('serif');
    expect((await paragraphStyle(page)).fontFamily).toMatch(
      /^Charter, "Iowan Old Style", Georgia, "Noto Serif"/,
    );

    for (let i = 0; i < 3; i++) await panel.getByTestId('typography-size-more').click();
    await panel.getByTestId('typography-line-height-more').click();
    await panel.getByTestId('typography-line-height-more').click();
    await panel.getByTestId('typography-width-less').click();
    await panel.getByTestId('typography-width-less').click();
    await panel.getByTestId('typography-justify').click();
    await expect.poll(() => panel.getByTestId('typography-size-value').textContent(), UI_WAIT).toBe('22 px');
    await expect
      .poll(() => panel.getByTestId('typography-line-height-value').textContent(), UI_WAIT)
      .toBe('1.95');
    await expect
      .poll(() => panel.getByTestId('typography-width-value').textContent(), UI_WAIT)
      .toBe('600 px');
    await expect
      .poll(() => paragraphStyle(page), UI_WAIT)
      .toMatchObject({
        fontSize: '22px',
        lineHeight: `${Math.round(22 * 1.95 * 100) / 100}px`,
        textAlign: 'justify',
        columnWidth: 600,
      });
    const chosen = {
      readerFont: 'serif',
      readerFontSize: 22,
      readerLineHeight: 1.95,
      readerWidth: 600,
      readerJustify: true,
    };
    await expect.poll(() => user.caller.settings.get(), UI_WAIT).toMatchObject(chosen);
    // Esc closes the panel (and stays in the note), the button has the focus again.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), UI_WAIT)
      .toBe('reader-typography');
    expect(page.url()).toContain(`pi=${noteId}`);

    // The next visit's first render has them from index.html: settings.get is never answered.
    await page.route('**/trpc/**', (route) =>
      route.request().url().includes('settings.get') ? route.abort() : route.fallback(),
    );
    await page.reload();
    await page.getByTestId('reader-content').waitFor();
    expect(await paragraphStyle(page)).toMatchObject({
      fontSize: '22px',
      textAlign: 'justify',
      columnWidth: 600,
    });
    await page.unroute('**/trpc/**');

    // Another account reads with its own (default) settings.
    const other = await app.user();
    const { noteId: othersNote } = await article(other, ENGLISH);
    const second = await app.signIn(`/?pi=${othersNote}`, { user: other });
    await second.page.getByTestId('reader-content').waitFor();
    expect(await paragraphStyle(second.page)).toMatchObject({ fontSize: '19px', columnWidth: 680 });
    expect(await other.caller.settings.get()).toMatchObject({ readerFont: null, readerFontSize: null });
    await second.context.close();

    // Reset: the defaults again, here and on the server.
    await page.getByTestId('reader-typography').click();
    await page.getByTestId('typography-reset').click();
    await expect
      .poll(() => paragraphStyle(page), UI_WAIT)
      .toMatchObject({ fontSize: '19px', textAlign: 'start' });
    await expect
      .poll(() => user.caller.settings.get(), UI_WAIT)
      .toMatchObject({ readerFont: null, readerFontSize: null, readerLineHeight: null, readerWidth: null });
    expect(await page.getByTestId('typography-reset').isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('Chinese, Japanese and Korean: the CJK face first, strict breaking, justified between characters, phrase and word breaking', async () => {
    const user = await app.user();
    const zh = await article(user, CHINESE, { title: '慢慢读书', lang: 'zh-CN' });
    const ja = await article(user, JAPANESE, { title: 'ゆっくり読む', lang: 'ja' });
    const ko = await article(user, KOREAN, { title: '천천히 읽기', lang: 'ko' });
    // A page that does not say its language is read in the app's.
    const untagged = await article(user, CHINESE, { title: '没有标注语言', lang: null });
    const { context, page } = await app.signIn(`/?pi=${untagged.noteId}`, { user, locale: 'zh-CN' });
    await page.getByTestId('reader-content').waitFor();
    const cjk = () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.querySelector('.reader-content p') as HTMLElement);
        return {
          fontFamily: style.fontFamily,
          lineBreak: style.lineBreak,
          wordBreak: style.wordBreak,
          textAlign: style.textAlign,
          textJustify: style.getPropertyValue('text-justify'),
          textSpacingTrim: style.getPropertyValue('text-spacing-trim'),
          textAutospace: style.getPropertyValue('text-autospace'),
          lineHeight: style.lineHeight,
        };
      });
    // The text and the panel both take the Chinese defaults.
    expect(await cjk()).toMatchObject({
      textAlign: 'justify',
      lineHeight: `${Math.round(19 * 1.85 * 100) / 100}px`,
    });
    await page.getByTestId('reader-typography').click();
    expect(await page.getByTestId('typography-justify').isChecked()).toBe(true);
    expect(await page.getByTestId('typography-line-height-value').textContent()).toBe('1.85');
    await page.keyboard.press('Escape');
    await page.getByTestId('typography-panel').waitFor({ state: 'detached' });

    await page.goto(app.url(`/?pi=${zh.noteId}`));
    await page.getByTestId('reader-content').waitFor();
    const chinese = await cjk();
    expect(chinese.fontFamily).toMatch(/^"PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC"/);
    expect(chinese).toMatchObject({
      lineBreak: 'strict',
      textAlign: 'justify',
      textAutospace: 'normal',
      lineHeight: `${Math.round(19 * 1.85 * 100) / 100}px`,
    });
    // The panel shows the defaults for this language, and in the reader's language.
    await page.getByTestId('reader-typography').click();
    const panel = page.getByTestId('typography-panel');
    expect(await panel.getByTestId('typography-justify').isChecked()).toBe(true);
    expect(await panel.getByTestId('typography-line-height-value').textContent()).toBe('1.85');
    expect(await panel.getByTestId('typography-font-serif').textContent()).toContain('衬线');
    await panel.getByTestId('typography-font-serif').click();
    await expect
      .poll(async () => (await cjk()).fontFamily, UI_WAIT)
      .toMatch(/^"Noto Serif CJK SC", "Source Han Serif SC", "Songti SC", STSong, SimSun, Charter/);
    await panel.getByTestId('typography-justify').click();
    await expect.poll(async () => (await cjk()).textAlign, UI_WAIT).toBe('start');
    await expect.poll(() => user.caller.settings.get(), UI_WAIT).toMatchObject({ readerJustify: false });
    await panel.getByTestId('typography-justify').click();
    await expect.poll(() => user.caller.settings.get(), UI_WAIT).toMatchObject({ readerJustify: true });

    await page.goto(app.url(`/?pi=${ja.noteId}`));
    await page.getByTestId('reader-content').waitFor();
    const japanese = await cjk();
    expect(japanese.fontFamily).toMatch(/^"Hiragino Mincho ProN", "Noto Serif CJK JP"/);
    expect(japanese).toMatchObject({
      lineBreak: 'strict',
      wordBreak: 'normal',
      textSpacingTrim: 'trim-start',
      textAlign: 'justify',
    });
    if (await page.evaluate(() => CSS.supports('text-justify', 'inter-character')))
      expect(japanese.textJustify).toBe('inter-character');
    // Phrases kept whole where lines are ragged: the title, and text no longer justified.
    const titleBreak = () =>
      page.evaluate(() => getComputedStyle(document.querySelector('.reader-title') as HTMLElement).wordBreak);
    expect(await titleBreak()).toBe('auto-phrase');
    await page.getByTestId('reader-typography').click();
    await page.getByTestId('typography-justify').click();
    await expect.poll(async () => (await cjk()).wordBreak, UI_WAIT).toBe('auto-phrase');
    await page.keyboard.press('Escape');

    await page.goto(app.url(`/?pi=${ko.noteId}`));
    await page.getByTestId('reader-content').waitFor();
    const korean = await cjk();
    expect(korean.fontFamily).toMatch(/^AppleMyungjo, "Noto Serif CJK KR"/);
    expect(korean).toMatchObject({ lineBreak: 'strict', wordBreak: 'keep-all' });
    await context.close();
  });
});

describe('focus mode and the reader’s keys (Chromium)', () => {
  test('f, the button and the corner button go in and out of focus mode; Esc leaves it, not the note; no key while typing or with a modifier', async () => {
    const user = await app.user();
    const { noteId } = await article(user, ENGLISH);
    const { context, page, errors } = await app.signIn(`/?pi=${noteId}`, { user });
    await page.getByTestId('reader-content').waitFor();
    expect(await chromeShown(page)).toEqual([true, true, true, true]);

    await page.keyboard.press('f');
    await expect.poll(() => chromeShown(page), UI_WAIT).toEqual([false, false, false, false]);
    expect(await page.getByTestId('reader-content').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => chromeShown(page), UI_WAIT).toEqual([true, true, true, true]);
    expect(page.url()).toContain(`pi=${noteId}`);

    // A selection in the article: the first Esc drops it and focus mode stays; the next leaves it.
    await page.keyboard.press('f');
    await expect.poll(() => chromeShown(page), UI_WAIT).toEqual([false, false, false, false]);
    await dragSelect(page, 'think the thought again', { within: '.reader-content' });
    await page.getByTestId('selection-tooltip').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.getSelection()?.isCollapsed), UI_WAIT).toBe(true);
    expect(await chromeShown(page)).toEqual([false, false, false, false]);
    await page.keyboard.press('Escape');
    await expect.poll(() => chromeShown(page), UI_WAIT).toEqual([true, true, true, true]);

    await page.getByTestId('reader-focus').click();
    await expect.poll(() => chromeShown(page), UI_WAIT).toEqual([false, false, false, false]);
    await page.getByTestId('focus-exit').click();
    await expect.poll(() => chromeShown(page), UI_WAIT).toEqual([true, true, true, true]);
    expect(await page.getByTestId('reader-focus').getAttribute('aria-pressed')).toBe('false');

    // Modifiers: the browser's and the system's.
    for (const key of ['Control+f', 'Alt+f', 'Meta+f']) await page.keyboard.press(key);
    expect(await chromeShown(page)).toEqual([true, true, true, true]);

    // Typing in the drawer's text field, or in a field of the page, types.
    await page.getByTestId('reader-highlights').click();
    const field = page.getByTestId('panel-text-note-input');
    await field.click();
    await page.keyboard.type('fjk?');
    expect(await field.inputValue()).toBe('fjk?');
    await page.keyboard.press('Escape');
    await page.getByTestId('highlights-panel').waitFor({ state: 'detached' });
    await page.evaluate(() => {
      const editable = document.createElement('div');
      editable.contentEditable = 'true';
      editable.dataset.testid = 'editable';
      document.querySelector('.reader-header')?.append(editable);
    });
    await page.getByTestId('editable').click();
    await page.keyboard.type('f?');
    expect(await page.getByTestId('editable').textContent()).toBe('f?');
    expect(await chromeShown(page)).toEqual([true, true, true, true]);
    expect(await page.getByTestId('shortcut-sheet').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('j / k move through the highlights in the article’s order, bring each into view and ring it; h highlights the selection; ? lists the shortcuts', async () => {
    const user = await app.user();
    const { noteId, text } = await article(user, ENGLISH);
    // Made out of order: the keys follow the article, not the list.
    const late = await highlight(user, noteId, text, 'Paragraph 35 walks slowly');
    const early = await highlight(user, noteId, text, 'Paragraph 4 walks slowly');
    const middle = await highlight(user, noteId, text, 'Paragraph 20 walks slowly');
    const { context, page, errors } = await app.signIn(`/?pi=${noteId}`, { user });
    await page.getByTestId('reader-content').waitFor();
    await expect
      .poll(() => page.getByTestId('reader-highlights').getAttribute('data-count'), UI_WAIT)
      .toBe('3');

    const ringed = async () => {
      const ring = page.getByTestId('current-highlight').first();
      return {
        id: await ring.getAttribute('data-highlight-id'),
        inView: await onScreen(page, 'current-highlight'),
      };
    };
    const position = () => page.getByTestId('current-highlight-position').textContent();

    await page.keyboard.press('j');
    await expect.poll(ringed, UI_WAIT).toEqual({ id: early, inView: true });
    expect(await position()).toBe('Highlight 1 of 3');
    await page.keyboard.press('j');
    await expect.poll(ringed, UI_WAIT).toEqual({ id: middle, inView: true });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await page.keyboard.press('j');
    await expect.poll(ringed, UI_WAIT).toEqual({ id: late, inView: true });
    // At the last one, j stays; k goes back.
    await page.keyboard.press('j');
    expect(await position()).toBe('Highlight 3 of 3');
    await page.keyboard.press('k');
    await expect.poll(ringed, UI_WAIT).toEqual({ id: middle, inView: true });
    expect(await position()).toBe('Highlight 2 of 3');
    // The ring is drawn in the highlight's colour around its text.
    const ring = await page
      .getByTestId('current-highlight')
      .first()
      .evaluate((box) => {
        const style = getComputedStyle(box);
        return { shadow: style.boxShadow, width: box.getBoundingClientRect().width };
      });
    expect(ring.shadow).toMatch(/rgba?\(/);
    expect(ring.width).toBeGreaterThan(50);

    // h: the selection in the default colour, as the tooltip's one-colour button.
    await dragSelect(page, 'think the thought again', { within: '.reader-content' });
    await page.getByTestId('selection-tooltip').waitFor();
    await page.keyboard.press('h');
    await expect
      .poll(async () => (await user.caller.highlights.byNote({ id: noteId })).length, UI_WAIT)
      .toBe(4);
    const made = (await user.caller.highlights.byNote({ id: noteId })).find(
      (h) => ![late, early, middle].includes(h.id),
    );
    expect(made).toMatchObject({ text: 'think the thought again', slotId: 1 });
    // h with nothing selected does nothing.
    await page.keyboard.press('h');
    expect((await user.caller.highlights.byNote({ id: noteId })).length).toBe(4);

    // ?: the sheet, closed by Esc, which leaves the reader where it was.
    await page.keyboard.press('?');
    const sheet = page.getByTestId('shortcut-sheet');
    await sheet.waitFor();
    expect(await sheet.getByRole('heading').textContent()).toBe('Keyboard shortcuts');
    const rows = await sheet.getByTestId('shortcut-row').allTextContents();
    expect(rows).toContain('jNext highlight');
    expect(rows).toContain('kPrevious highlight');
    expect(rows).toContain('hHighlight the selected text');
    expect(rows).toContain('fTurn focus mode on or off');
    expect(rows).toContain('?Show these shortcuts');
    expect(rows).toHaveLength(8);
    // No reader key works under it.
    await page.keyboard.press('f');
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-reader-focus'))).toBe(false);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    expect(await page.getByTestId('reader').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the shortcut sheet from the "More" menu, translated: Chinese, and Arabic right to left', async () => {
    const user = await app.user();
    const { noteId } = await article(user, ENGLISH);
    for (const [locale, title, next] of [
      ['zh-CN', '键盘快捷键', '下一条划线'],
      ['ar', 'اختصارات لوحة المفاتيح', 'التظليل التالي'],
    ] as const) {
      const { context, page } = await app.signIn(`/?pi=${noteId}`, { user, locale });
      await page.getByTestId('reader-content').waitFor();
      await page.getByTestId('reader-more').click();
      await page.getByTestId('reader-shortcuts').click();
      const sheet = page.getByTestId('shortcut-sheet');
      await sheet.waitFor();
      expect(await sheet.getByRole('heading').textContent()).toBe(title);
      expect(await sheet.getByTestId('shortcut-row').first().textContent()).toBe(`j${next}`);
      expect(await sheet.evaluate((element) => getComputedStyle(element).direction)).toBe(
        locale === 'ar' ? 'rtl' : 'ltr',
      );
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });
      await context.close();
    }
  });
});

describe('the action bar on a phone (Chromium)', () => {
  const BAR = ['reader-back', 'reader-highlights', 'reader-typography', 'reader-focus', 'reader-more'];
  const MENU = [
    'reader-original',
    'reader-copy-link',
    'export-text',
    'export-markdown',
    'export-highlights-markdown',
    'export-highlights-text',
    'reader-shortcuts',
  ];

  test('at 360 px every action is on screen and works, the less-used ones in "More"; at 1280 px they are all in the bar', async () => {
    const user = await app.user();
    const { noteId, text } = await article(user, ENGLISH);
    await highlight(user, noteId, text, 'Paragraph 2 walks slowly');
    const { context, page, errors } = await app.signIn(`/?pi=${noteId}`, { user, viewport: PHONE });
    await page.getByTestId('reader-content').waitFor();
    for (const id of BAR) expect(await onScreen(page, id), id).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await page.getByTestId('reader-actions').getAttribute('data-compact')).toBe('true');

    await page.getByTestId('reader-more').click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    for (const id of MENU) expect(await onScreen(page, id, menu), id).toBe(true);
    expect(await menu.getByTestId('reader-original').getAttribute('href')).toMatch(
      /^https:\/\/articles\.example\//,
    );
    expect(await menu.getByTestId('reader-original').getAttribute('target')).toBe('_blank');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      menu.getByTestId('export-markdown').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.md$/);

    await page.getByTestId('reader-more').click();
    await page.getByTestId('reader-copy-link').click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()), UI_WAIT)
      .toBe(app.url(`/?pi=${noteId}&vs=article`));

    // The panel and the drawer fit too.
    await page.getByTestId('reader-typography').click();
    expect(await onScreen(page, 'typography-panel')).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('reader-highlights').click();
    await page.getByTestId('highlights-panel').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('highlights-panel').waitFor({ state: 'detached' });

    // Wide: everything in the bar itself, "More" keeps the shortcut sheet.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => page.getByTestId('reader-export').isVisible(), UI_WAIT).toBe(true);
    for (const id of ['reader-original', 'reader-copy-link', 'reader-export', ...BAR])
      expect(await onScreen(page, id), id).toBe(true);
    await page.getByTestId('reader-export').click();
    expect(await onScreen(page, 'export-highlights-text')).toBe(true);
    await page.keyboard.press('Escape');
    // And narrow again.
    await page.setViewportSize(PHONE);
    await expect.poll(() => page.getByTestId('reader-export').count(), UI_WAIT).toBe(0);
    for (const id of BAR) expect(await onScreen(page, id), id).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('in Arabic the bar is mirrored: back on the right, the actions to its left, the menu on screen', async () => {
    const user = await app.user();
    const { noteId } = await article(user, ENGLISH);
    const { context, page } = await app.signIn(`/?pi=${noteId}`, { user, viewport: PHONE, locale: 'ar' });
    await page.getByTestId('reader-content').waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    for (const id of BAR) expect(await onScreen(page, id), id).toBe(true);
    const x = async (id: string) => (await page.getByTestId(id).boundingBox())?.x ?? Number.NaN;
    expect(await x('reader-back')).toBeGreaterThan(PHONE.width / 2);
    expect(await x('reader-more')).toBeLessThan(PHONE.width / 2);
    // Reading order runs right to left: the drawer's button, then the panel, focus, "More".
    expect(await x('reader-highlights')).toBeGreaterThan(await x('reader-typography'));
    expect(await x('reader-typography')).toBeGreaterThan(await x('reader-focus'));
    await page.getByTestId('reader-more').click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    for (const id of MENU) expect(await onScreen(page, id, menu), id).toBe(true);
    expect(await menu.getByTestId('export-markdown').textContent()).toBe('تصدير بتنسيق Markdown');
    await context.close();
  });
});
