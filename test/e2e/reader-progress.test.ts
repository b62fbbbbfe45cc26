import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { describeRange } from '../../src/anchoring/index.ts';
import { ClipStatus, CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { readingMinutes } from '../../src/text/reading-time.ts';
import { dragSelect } from '../helpers/drag-select.ts';
import { e2eFixture, type SignedInUser } from '../helpers/e2e.ts';
import { waitFor } from '../helpers/wait.ts';

/** Waits for the UI: far beyond what a loaded machine needs (expect.poll's default is 1 s). */
const UI_WAIT = { timeout: 20_000 };

const app = e2eFixture({ workers: true });

const TOPICS = ['gardens', 'rivers', 'libraries', 'bridges', 'orchards', 'harbours', 'letters', 'maps'];

/** A long English article: each paragraph says its number, so a test can tell where it is. */
const ENGLISH = Array.from(
  { length: 60 },
  (_, i) =>
    `<p>Paragraph ${i + 1} wanders through ${TOPICS[i % TOPICS.length]} and quiet afternoons, keeping notes in the margin while the light changes slowly over the page, and then it moves on to the next thought without hurry.</p>`,
).join('\n');

const CHINESE = Array.from(
  { length: 30 },
  (_, i) =>
    `<p>第${i + 1}段：我们一起阅读这篇文章，然后在页边做笔记，慢慢地把想法记下来。读书的时候要有耐心，把重要的句子划出来，日后再回来看一看，会发现新的意思。</p>`,
).join('\n');

function page(title: string, lang: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title></head>
<body><article><h1>${title}</h1>${body}</article></body></html>`;
}

/** Saves an article through the API (no fetch) and waits for the worker to parse it. */
async function savedArticle(user: SignedInUser, path: string, html: string): Promise<string> {
  const { note } = await user.caller.notes.clipHtml({ url: `https://articles.example${path}`, html });
  await waitFor(
    async () =>
      (await user.caller.notes.get({ id: note.id })).clipStatus === ClipStatus.done ? true : undefined,
    15_000,
    'the article to be parsed',
  );
  return note.id;
}

/** The text of the first paragraph with a line below the reader's sticky toolbar. */
function firstVisibleParagraph(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const covered = document.querySelector('.reader-toolbar')?.getBoundingClientRect().bottom ?? 0;
    for (const p of document.querySelectorAll<HTMLElement>('.reader-content p'))
      if (p.getBoundingClientRect().bottom > covered + 4) return p.textContent;
    return null;
  });
}

/** The paragraph of the note's text that holds `offset`. */
function paragraphAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n\n', offset - 1);
  const end = text.indexOf('\n\n', offset);
  return text.slice(start < 0 ? 0 : start + 2, end < 0 ? text.length : end);
}

const barValue = async (page: Page) =>
  Number(await page.getByTestId('reading-progress').getAttribute('aria-valuenow'));

describe('reading progress (Chromium)', () => {
  test('saved while scrolling, restored near the same text on another device with another width; the bar shows it', async () => {
    const user = await app.user();
    const noteId = await savedArticle(user, '/long', page('Slow reading', 'en', ENGLISH));
    const { text } = await user.caller.notes.get({ id: noteId });

    // A laptop: the note opens at its top, the bar empty.
    const laptop = await app.signIn(`/?pi=${noteId}`, { user });
    await laptop.page.getByTestId('reader-content').waitFor();
    expect(await barValue(laptop.page)).toBe(0);
    expect(await firstVisibleParagraph(laptop.page)).toMatch(/^Paragraph 1 /);

    // Half-way down with the mouse wheel; the bar follows.
    await laptop.page.mouse.move(640, 400);
    for (let turns = 0; turns < 60 && (await barValue(laptop.page)) < 45; turns++)
      await laptop.page.mouse.wheel(0, 300);
    await expect.poll(() => barValue(laptop.page), UI_WAIT).toBeGreaterThanOrEqual(45);

    // The server keeps the offset of the first line on screen, once scrolling rests; the bar
    // shows the share saved with it.
    const saved = await waitFor(async () => {
      const progress = (await user.caller.notes.get({ id: noteId })).readingProgress;
      return progress && progress.offset > 0 ? progress : undefined;
    });
    expect(saved.fraction).toBeGreaterThan(0.4);
    expect(saved.fraction).toBeLessThan(0.7);
    expect(Math.abs((await barValue(laptop.page)) - saved.fraction * 100)).toBeLessThanOrEqual(2);
    const readTo = await firstVisibleParagraph(laptop.page);
    expect(readTo).toMatch(/^Paragraph (2\d|3\d|4\d) /);
    expect(paragraphAt(text, saved.offset)).toBe(readTo);

    // A phone (another browser, another width) opens the note at the same paragraph.
    const phone = await app.signIn(`/?pi=${noteId}`, { user, viewport: { width: 360, height: 740 } });
    await phone.page.getByTestId('reader-content').waitFor();
    await expect.poll(() => firstVisibleParagraph(phone.page), UI_WAIT).toBe(readTo);
    await expect.poll(() => barValue(phone.page), UI_WAIT).toBeGreaterThan(25);
    expect(await barValue(phone.page)).toBeLessThan(80);

    // Read to the end there and go back to the list: saved as the reader closes.
    // (Blocks laid out on the way may change the page's height: scroll until the end stays put.)
    await expect
      .poll(async () => {
        await phone.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return barValue(phone.page);
      }, UI_WAIT)
      .toBe(100);
    await phone.page.getByTestId('reader-back').click();
    await phone.page.getByTestId('reader').waitFor({ state: 'detached' });
    const atEnd = await waitFor(async () => {
      const progress = (await user.caller.notes.get({ id: noteId })).readingProgress;
      return progress && progress.fraction > 0.95 ? progress : undefined;
    });
    expect(paragraphAt(text, atEnd.offset)).toMatch(/^Paragraph (5\d|60) /);
    // Opened again there from the list (its note already fetched): it starts where reading stopped.
    await phone.page.locator('[data-testid="note-item"] .note-item-link').first().click();
    await phone.page.getByTestId('reader-content').waitFor();
    await expect.poll(() => firstVisibleParagraph(phone.page), UI_WAIT).toBe(paragraphAt(text, atEnd.offset));

    // Leaving the page right after scrolling saves at once, by a request that outlives the page
    // (not tRPC's batch, which a closing page would cancel).
    const leaving = laptop.page.waitForResponse((response) =>
      response.url().endsWith('/trpc/notes.saveProgress'),
    );
    await laptop.page.evaluate(async () => {
      window.scrollTo(0, 0);
      await new Promise((settled) => requestAnimationFrame(() => setTimeout(settled, 50)));
      window.dispatchEvent(new PageTransitionEvent('pagehide'));
    });
    expect((await leaving).status()).toBe(200);
    await expect
      .poll(async () => (await user.caller.notes.get({ id: noteId })).readingProgress?.fraction, UI_WAIT)
      .toBe(0);
    await laptop.page.close({ runBeforeUnload: true });

    expect([...laptop.errors, ...phone.errors]).toEqual([]);
    await laptop.context.close();
    await phone.context.close();
  });

  test('a link to a highlight opens at the highlight, not where reading stopped', async () => {
    const user = await app.user();
    const noteId = await savedArticle(user, '/linked', page('Linked reading', 'en', ENGLISH));
    const { text } = await user.caller.notes.get({ id: noteId });
    const late = text.indexOf('Paragraph 55 ');
    await user.caller.notes.saveProgress({
      id: noteId,
      offset: text.indexOf('Paragraph 20 '),
      fraction: 0.3,
    });
    const highlightId = newId();
    await user.caller.highlights.create({
      id: highlightId,
      noteId,
      coreType: CoreType.highlight,
      slotId: 1,
      selectors: describeRange(text, late, late + 'Paragraph 55'.length),
    });
    const { page: reader, context } = await app.signIn(`/?nx=${highlightId}`, { user });
    await reader.getByTestId('reader-content').waitFor();
    await expect
      .poll(
        () =>
          reader.evaluate(() => {
            const p = [...document.querySelectorAll('.reader-content p')].find((e) =>
              e.textContent?.startsWith('Paragraph 55 '),
            );
            const rect = p?.getBoundingClientRect();
            return rect ? rect.top >= 0 && rect.bottom <= window.innerHeight : false;
          }),
        UI_WAIT,
      )
      .toBe(true);
    expect(await firstVisibleParagraph(reader)).not.toMatch(/^Paragraph 20 /);
    await context.close();
  });

  test('reading time in the meta line: English by words, Chinese by characters, in the reader’s language', async () => {
    const user = await app.user();
    const englishId = await savedArticle(user, '/en', page('Slow reading', 'en', ENGLISH));
    const chineseId = await savedArticle(user, '/zh', page('慢慢阅读', 'zh-CN', CHINESE));
    const englishMinutes = readingMinutes((await user.caller.notes.get({ id: englishId })).text);
    const chineseMinutes = readingMinutes((await user.caller.notes.get({ id: chineseId })).text);
    expect(englishMinutes).toBe(8); // ~1,900 words at 230 a minute
    expect(chineseMinutes).toBe(4); // ~1,900 characters at 450 a minute

    const { page: reader, context } = await app.signIn(`/?pi=${englishId}`, { user });
    await expect.poll(() => reader.getByTestId('reading-time').textContent(), UI_WAIT).toBe('8 min read');
    await reader.goto(app.url(`/?pi=${chineseId}`));
    await expect.poll(() => reader.getByTestId('reading-time').textContent(), UI_WAIT).toBe('4 min read');
    await context.close();

    const zh = await app.signIn(`/?pi=${chineseId}`, { user, locale: 'zh-CN' });
    await expect.poll(() => zh.page.getByTestId('reading-time').textContent(), UI_WAIT).toBe('约 4 分钟读完');
    const label = await zh.page.getByTestId('reading-progress').getAttribute('aria-label');
    expect(label).toBe('阅读进度');
    await zh.context.close();
  });
});

describe('highlights snap to whole words (Chromium)', () => {
  test('a drag from inside a word to inside another keeps whole words; a CJK selection stays exact', async () => {
    const user = await app.user();
    const englishId = await savedArticle(user, '/snap', page('Snapping', 'en', ENGLISH));
    const { page: reader, context, errors } = await app.signIn(`/?pi=${englishId}`, { user });
    await reader.getByTestId('reader-content').waitFor();

    // From the middle of "wanders" to the middle of "afternoons".
    await dragSelect(reader, 'nders through rivers and quiet aftern', { within: '.reader-content' });
    await reader.getByTestId('selection-tooltip').waitFor();
    // The selection on screen grows to what will be kept.
    await expect
      .poll(() => reader.evaluate(() => document.getSelection()?.toString()), UI_WAIT)
      .toBe('wanders through rivers and quiet afternoons');
    await reader.getByTestId('tooltip-colour-2').click();
    const [saved] = await waitFor(async () => {
      const list = await user.caller.highlights.byNote({ id: englishId });
      return list.length === 1 ? list : undefined;
    });
    expect(saved?.text).toBe('wanders through rivers and quiet afternoons');
    const { text } = await user.caller.notes.get({ id: englishId });
    expect(text.slice(saved?.selectors?.position.start, saved?.selectors?.position.end)).toBe(saved?.text);
    await context.close();

    const chineseId = await savedArticle(user, '/snap-zh', page('慢慢阅读', 'zh-CN', CHINESE));
    const zh = await app.signIn(`/?pi=${chineseId}`, { user });
    await zh.page.getByTestId('reader-content').waitFor();
    await dragSelect(zh.page, '起阅读这', { within: '.reader-content' });
    await zh.page.getByTestId('selection-tooltip').waitFor();
    expect(await zh.page.evaluate(() => document.getSelection()?.toString())).toBe('起阅读这');
    await zh.page.keyboard.press('3');
    const [exact] = await waitFor(async () => {
      const list = await user.caller.highlights.byNote({ id: chineseId });
      return list.length === 1 ? list : undefined;
    });
    expect(exact?.text).toBe('起阅读这');
    expect([...errors, ...zh.errors]).toEqual([]);
    await zh.context.close();
  });
});

describe('an unsaved annotation is kept as a draft (Chromium)', () => {
  /** Opens the card of the highlight on `phrase` by clicking it. */
  async function openCard(reader: Page, phrase: string) {
    const point = await reader.evaluate((wanted) => {
      for (const [, highlight] of CSS.highlights)
        for (const painted of highlight) {
          const range = document.createRange();
          range.setStart(painted.startContainer, painted.startOffset);
          range.setEnd(painted.endContainer, painted.endOffset);
          if (range.toString() !== wanted) continue;
          const rect = [...range.getClientRects()].find((r) => r.width > 0) as DOMRect;
          return { x: rect.left + Math.min(rect.width / 2, 20), y: rect.top + rect.height / 2 };
        }
      return null;
    }, phrase);
    if (!point) throw new Error(`not painted: ${phrase}`);
    await reader.mouse.click(point.x, point.y);
    const card = reader.getByTestId('highlight-card');
    await card.waitFor();
    return card;
  }

  test('Esc keeps what was typed; reopening restores it as a draft; saving stores it and drops the draft', async () => {
    const user = await app.user();
    const noteId = await savedArticle(user, '/draft', page('Drafts', 'en', ENGLISH));
    const { text } = await user.caller.notes.get({ id: noteId });
    const phrase = 'Paragraph 1 wanders';
    const at = text.indexOf(phrase);
    await user.caller.highlights.create({
      id: newId(),
      noteId,
      coreType: CoreType.highlight,
      slotId: 1,
      selectors: describeRange(text, at, at + phrase.length),
    });
    const { page: reader, context, errors } = await app.signIn(`/?pi=${noteId}`, { user });
    await reader.getByTestId('reader-content').waitFor();
    await expect.poll(() => reader.evaluate(() => CSS.highlights.size), UI_WAIT).toBeGreaterThan(0);

    let card = await openCard(reader, phrase);
    await card.getByTestId('annotation-edit').click();
    await card.getByTestId('annotation-input').fill('A thought I have not saved yet');
    await reader.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    expect(await reader.getByTestId('reader').count()).toBe(1);

    // Reopened: the editor comes back with the draft, and says it is one.
    card = await openCard(reader, phrase);
    await expect
      .poll(() => card.getByTestId('annotation-input').inputValue(), UI_WAIT)
      .toBe('A thought I have not saved yet');
    expect(await card.getByTestId('annotation-draft').textContent()).toContain('Unsaved draft restored');
    expect((await user.caller.highlights.byNote({ id: noteId }))[0]?.annotation).toBeNull();

    // A click outside keeps the draft too, and so does a reload.
    await card.getByTestId('annotation-input').fill('A thought I have not saved yet, longer');
    await reader.locator('.reader-title').click();
    await card.waitFor({ state: 'detached' });
    await reader.reload();
    await expect.poll(() => reader.evaluate(() => CSS.highlights.size), UI_WAIT).toBeGreaterThan(0);
    card = await openCard(reader, phrase);
    expect(await card.getByTestId('annotation-input').inputValue()).toBe(
      'A thought I have not saved yet, longer',
    );

    // Saved: stored on the highlight, and the draft is gone.
    await card.getByTestId('annotation-save').click();
    await expect
      .poll(
        async () => (await user.caller.highlights.byNote({ id: noteId }))[0]?.annotation?.message,
        UI_WAIT,
      )
      .toBe('A thought I have not saved yet, longer');
    await expect.poll(() => card.getByTestId('annotation-input').count(), UI_WAIT).toBe(0);
    await reader.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    card = await openCard(reader, phrase);
    expect(await card.getByTestId('annotation-input').count()).toBe(0);
    expect(await card.getByTestId('annotation-draft').count()).toBe(0);
    expect(
      await reader.evaluate(() =>
        Object.keys(localStorage).filter((k) => k.startsWith('margin.annotationDraft.')),
      ),
    ).toEqual([]);

    // Discard puts the saved annotation back.
    await card.getByTestId('annotation-edit').click();
    await card.getByTestId('annotation-input').fill('Second thoughts');
    await reader.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    card = await openCard(reader, phrase);
    await card.getByTestId('annotation-draft-discard').click();
    expect(await card.getByTestId('annotation-input').inputValue()).toBe(
      'A thought I have not saved yet, longer',
    );
    expect(await card.getByTestId('annotation-draft').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
