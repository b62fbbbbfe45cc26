import fs from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { describeRange } from '../../src/anchoring/index.ts';
import { ClipStatus, CoreType } from '../../src/enums.ts';
import { newId } from '../../src/rules/id.ts';
import { e2eFixture, type Opened, type SignedInUser } from '../helpers/e2e.ts';
import { pngImage } from '../helpers/images.ts';
import { html } from '../helpers/site.ts';
import { waitFor } from '../helpers/wait.ts';

/** Waits for the UI: far beyond what a loaded machine needs (expect.poll's default is 1 s). */
const UI_WAIT = { timeout: 20_000 };

// The article's picture: Margin stores it and the reader shows it at its real size (320×160), the
// size the page declares, so the picture arriving moves nothing (a jump may come before it).
const PNG = pngImage(320, 160);

const FILLER = Array.from(
  { length: 14 },
  (_, i) =>
    `<p>Filler paragraph number ${i + 1} talks about reading slowly, keeping notes and coming back to ideas later on.</p>`,
).join('\n');

function articleHtml(origin: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Highlight field guide</title></head><body>
<article><h1>Highlight field guide</h1>
<p>Margin keeps what you read. This first paragraph is long enough to count as real article text for the parser.</p>
<p>A second paragraph follows with <em>more words</em>, so that the extractor sees a proper body and not a teaser.</p>
<figure><img src="${origin}/pic.png" alt="A diagram" width="320" height="160"><figcaption>A diagram of the idea.</figcaption></figure>
${FILLER}
<p>The closing paragraph mentions the deep link target sentence near the very end of the article.</p>
</article></body></html>`;
}

const app = e2eFixture({
  workers: true,
  site: { '/pic.png': html(PNG, 'image/png') },
  browser: { acceptDownloads: true, clipboard: true },
});

/** Saves the article through the API (no fetch) and waits for the worker to parse it. */
async function savedArticle(user: SignedInUser, path: string): Promise<string> {
  const { note } = await user.caller.notes.clipHtml({
    url: `${app.site.origin}${path}`,
    html: articleHtml(app.site.origin),
  });
  await waitFor(
    async () =>
      (await user.caller.notes.get({ id: note.id })).clipStatus === ClipStatus.done ? true : undefined,
    15_000,
    'the page to be parsed',
  );
  return note.id;
}

/** Selects `phrase` in the article with a real mouse drag over its on-screen boxes. */
async function dragSelect(page: Page, phrase: string): Promise<void> {
  const box = await page.evaluate((wanted) => {
    const root = document.querySelector('.reader-content') as HTMLElement;
    const text = root.textContent ?? '';
    const at = text.indexOf(wanted);
    if (at < 0) throw new Error(`phrase not in article: ${wanted}`);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let seen = 0;
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const length = node.data.length;
      if (seen <= at && at < seen + length) range.setStart(node, at - seen);
      if (seen < at + wanted.length && at + wanted.length <= seen + length) {
        range.setEnd(node, at + wanted.length - seen);
        break;
      }
      seen += length;
    }
    (range.startContainer.parentElement as HTMLElement).scrollIntoView({ block: 'center' });
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    const first = rects[0] as DOMRect;
    const last = rects[rects.length - 1] as DOMRect;
    return {
      x1: first.left + 1,
      y1: first.top + first.height / 2,
      x2: last.right - 1,
      y2: last.top + last.height / 2,
    };
  }, phrase);
  await page.mouse.move(box.x1, box.y1);
  await page.mouse.down();
  await page.mouse.move((box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2, { steps: 5 });
  await page.mouse.move(box.x2, box.y2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => page.evaluate(() => document.getSelection()?.toString()), UI_WAIT).toBe(phrase);
}

const marksOf = (page: Page, id: string) => page.locator(`.reader-content mark[data-highlight-id="${id}"]`);

/** Opens `path` in a browser without the CSS Custom Highlight API: the reader paints <mark>s. */
async function signInWithoutHighlightApi(user: SignedInUser, path: string): Promise<Opened> {
  const opened = await app.signIn(undefined, { user });
  await opened.context.addInitScript(() => {
    delete (CSS as { highlights?: unknown }).highlights;
  });
  await opened.page.goto(app.url(path));
  return opened;
}

interface PaintedRange {
  /** The registered highlight it belongs to: margin-hl-<colour slot>-<style>. */
  name: string;
  text: string;
}

/** Every range painted with the Highlight API (the hover state left out). */
function paintedRanges(page: Page): Promise<PaintedRange[]> {
  return page.evaluate(() =>
    [...CSS.highlights]
      .filter(([name]) => name !== 'margin-hl-hover')
      .flatMap(([name, highlight]) =>
        [...highlight].map((painted) => {
          const range = document.createRange();
          range.setStart(painted.startContainer, painted.startOffset);
          range.setEnd(painted.endContainer, painted.endOffset);
          return { name, text: range.toString() };
        }),
      ),
  );
}

/** The registered names a phrase is painted under (several where highlights share its text). */
async function paintedAs(page: Page, phrase: string): Promise<string[]> {
  return (await paintedRanges(page)).filter((range) => range.text === phrase).map((range) => range.name);
}

/** What ::highlight(name) draws over the article's text. */
function highlightPaint(page: Page, name: string) {
  return page.evaluate((highlight) => {
    const style = getComputedStyle(
      document.querySelector('.reader-content p') as Element,
      `::highlight(${highlight})`,
    );
    return {
      background: style.backgroundColor,
      decoration: style.textDecorationLine,
      decorationStyle: style.textDecorationStyle,
    };
  }, name);
}

/** The middle of the first line of a painted range, scrolled into view. */
async function pointOnPainted(page: Page, phrase: string): Promise<{ x: number; y: number }> {
  return page.evaluate((wanted) => {
    for (const [, highlight] of CSS.highlights) {
      for (const painted of highlight) {
        const range = document.createRange();
        range.setStart(painted.startContainer, painted.startOffset);
        range.setEnd(painted.endContainer, painted.endOffset);
        if (range.toString() !== wanted) continue;
        (range.startContainer.parentElement as HTMLElement).scrollIntoView({ block: 'center' });
        const rect = [...range.getClientRects()].find((r) => r.width > 0) as DOMRect;
        return { x: rect.left + Math.min(rect.width / 2, 20), y: rect.top + rect.height / 2 };
      }
    }
    throw new Error(`not painted: ${wanted}`);
  }, phrase);
}

/**
 * The box of a painted range's first line, relative to the viewport: the first range of `phrase`,
 * or with `at` the one whose first line starts there (in page coordinates).
 */
async function paintedBox(
  page: Page,
  phrase: string,
  at?: { left: number; top: number },
): Promise<DOMRect | null> {
  return page.evaluate(
    ({ wanted, at }) => {
      for (const [, highlight] of CSS.highlights) {
        for (const painted of highlight) {
          const range = document.createRange();
          range.setStart(painted.startContainer, painted.startOffset);
          range.setEnd(painted.endContainer, painted.endOffset);
          if (range.toString() !== wanted) continue;
          const box = range.getClientRects()[0];
          if (!at) return box?.toJSON() ?? null;
          const left = (box?.left ?? Number.NaN) + window.scrollX;
          const top = (box?.top ?? Number.NaN) + window.scrollY;
          if (Math.abs(left - at.left) < 2 && Math.abs(top - at.top) < 2) return box?.toJSON() ?? null;
        }
      }
      return null;
    },
    { wanted: phrase, at },
  );
}

async function markText(page: Page, id: string): Promise<string> {
  return (await marksOf(page, id).allTextContents()).join('');
}

async function openCard(page: Page, id: string) {
  await marksOf(page, id).first().click();
  const card = page.getByTestId('highlight-card');
  await card.waitFor();
  expect(await card.getAttribute('data-highlight-id')).toBe(id);
  return card;
}

describe('highlighting in the reader (Chromium)', () => {
  test('without the Highlight API (marks): drag to select, colour by tooltip and by key, annotate with math, reload, recolour, delete and undo', async () => {
    const user = await app.user();
    const noteId = await savedArticle(user, '/field-guide');
    const { context, page, errors } = await signInWithoutHighlightApi(user, `/?pi=${noteId}&vs=article`);
    await page.getByTestId('reader-content').waitFor();

    // 1. A real drag, then the green button of the tooltip.
    const first = 'Margin keeps what you read';
    await dragSelect(page, first);
    const tooltip = page.getByTestId('selection-tooltip');
    await tooltip.waitFor();
    expect(await tooltip.getByRole('button').count()).toBeGreaterThanOrEqual(11);
    for (const button of await tooltip.getByRole('button').all())
      expect(await button.getAttribute('aria-label')).toBeTruthy();
    await page.getByTestId('tooltip-colour-2').click();
    await page.locator('.reader-content mark[data-highlight-id]').first().waitFor();
    await tooltip.waitFor({ state: 'detached' });
    let saved = await waitFor(async () => {
      const list = await user.caller.highlights.byNote({ id: noteId });
      return list.length === 1 ? list : undefined;
    });
    const greenId = saved[0]?.id as string;
    expect(saved[0]).toMatchObject({ text: first, slotId: 2, coreType: CoreType.highlight, style: 1 });
    await expect.poll(() => markText(page, greenId), UI_WAIT).toBe(first);
    expect(await marksOf(page, greenId).first().getAttribute('style')).toContain('#81C78438');
    expect(await marksOf(page, greenId).first().getAttribute('class')).toContain('hl-style-1');

    // Esc drops a selection (the reader stays open); keys do nothing without one.
    await dragSelect(page, 'real article text');
    await tooltip.waitFor();
    await page.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'detached' });
    expect(await page.getByTestId('reader').count()).toBe(1);
    await page.keyboard.press('3');
    expect(await user.caller.highlights.byNote({ id: noteId })).toHaveLength(1);

    // 2. Across an element boundary (into and out of <em>), coloured with key 4.
    const crossing = 'follows with more words, so that';
    await dragSelect(page, crossing);
    await tooltip.waitFor();
    await page.keyboard.press('4');
    saved = await waitFor(async () => {
      const list = await user.caller.highlights.byNote({ id: noteId });
      return list.length === 2 ? list : undefined;
    });
    const pinkId = saved.find((h) => h.id !== greenId)?.id as string;
    expect(saved.find((h) => h.id === pinkId)).toMatchObject({ text: crossing, slotId: 4 });
    await expect.poll(() => markText(page, pinkId), UI_WAIT).toBe(crossing);
    await expect.poll(() => marksOf(page, pinkId).count(), UI_WAIT).toBe(3);
    expect(await page.locator('.reader-content em mark').textContent()).toBe('more words');

    // 3. Annotate with math: KaTeX typesets it.
    let card = await openCard(page, greenId);
    await card.getByTestId('annotation-edit').click();
    await card.getByTestId('annotation-input').fill('Pythagoras, **always**: $a^2+b^2=c^2$');
    await card.getByTestId('annotation-save').click();
    await card.locator('[data-testid="annotation"][data-rendered="true"] .katex').first().waitFor();
    expect(await card.locator('.annotation strong').textContent()).toBe('always');
    expect(
      (await user.caller.highlights.byNote({ id: noteId })).find((h) => h.id === greenId)?.annotation
        ?.message,
    ).toBe('Pythagoras, **always**: $a^2+b^2=c^2$');

    // 4. Invalid math: the server's message and KaTeX's detail; nothing saved.
    await card.getByTestId('annotation-edit').click();
    await card.getByTestId('annotation-input').fill('Broken: $x^1^2$');
    await card.getByTestId('annotation-save').click();
    await card.getByTestId('annotation-error').waitFor();
    expect(await card.getByTestId('annotation-error-detail').textContent()).toMatch(/superscript/i);
    expect(await card.getByTestId('annotation-input').getAttribute('aria-invalid')).toBe('true');
    expect(
      (await user.caller.highlights.byNote({ id: noteId })).find((h) => h.id === greenId)?.annotation
        ?.message,
    ).toBe('Pythagoras, **always**: $a^2+b^2=c^2$');
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    expect(await page.getByTestId('reader').count()).toBe(1);

    // 5. Reload: the marks come back in place.
    await page.reload();
    await marksOf(page, pinkId).first().waitFor();
    await expect.poll(() => markText(page, greenId), UI_WAIT).toBe(first);
    await expect.poll(() => markText(page, pinkId), UI_WAIT).toBe(crossing);

    // 6. Recolour in the card.
    card = await openCard(page, greenId);
    await card.getByTestId('card-colour-3').click();
    await expect
      .poll(() => marksOf(page, greenId).first().getAttribute('style'), UI_WAIT)
      .toContain('#64B5F638');
    await expect
      .poll(
        async () =>
          (await user.caller.highlights.byNote({ id: noteId })).find((h) => h.id === greenId)?.slotId,
        UI_WAIT,
      )
      .toBe(3);
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });

    // 7. Delete, then Undo: the same highlight (id, colour, annotation) comes back.
    card = await openCard(page, greenId);
    await card.getByTestId('highlight-delete').click();
    await expect.poll(() => marksOf(page, greenId).count(), UI_WAIT).toBe(0);
    await expect
      .poll(async () => (await user.caller.highlights.byNote({ id: noteId })).length, UI_WAIT)
      .toBe(1);
    await page.locator('[data-sonner-toast] button[data-button]').click();
    await marksOf(page, greenId).first().waitFor();
    const restored = await waitFor(async () =>
      (await user.caller.highlights.byNote({ id: noteId })).find((h) => h.id === greenId),
    );
    expect(restored).toMatchObject({ slotId: 3, text: first });
    expect(restored.annotation?.message).toBe('Pythagoras, **always**: $a^2+b^2=c^2$');

    // 8. Export the note's highlights as Markdown.
    await page.getByTestId('reader-export').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-highlights-markdown').click(),
    ]);
    const markdown = await fs.readFile(await download.path(), 'utf8');
    expect(markdown).toContain(`> ${first}`);
    expect(markdown).toContain('$a^2+b^2=c^2$');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('with the Highlight API: ranges in their colour and style and no marks; hover; a click opens the card of the innermost highlight', async () => {
    const user = await app.user();
    const noteId = await savedArticle(user, '/ranges');
    const { context, page, errors } = await app.signIn(`/?pi=${noteId}&vs=article`, { user });
    const content = page.getByTestId('reader-content');
    await content.waitFor();
    const rendered = await content.innerHTML();
    const tooltip = page.getByTestId('selection-tooltip');

    // A drag across an element boundary (into and out of <em>), green from the tooltip: one range.
    const crossing = 'follows with more words, so that';
    await dragSelect(page, crossing);
    await page.getByTestId('tooltip-colour-2').click();
    await expect.poll(() => paintedAs(page, crossing), UI_WAIT).toEqual(['margin-hl-2-1']);
    const crossingId = (await waitFor(async () => (await user.caller.highlights.byNote({ id: noteId }))[0]))
      .id;
    expect(await highlightPaint(page, 'margin-hl-2-1')).toMatchObject({
      background: 'rgba(129, 199, 132, 0.22)',
    });
    // A highlight inside it, pink by key 4.
    await dragSelect(page, 'more words');
    await tooltip.waitFor();
    await page.keyboard.press('4');
    await expect.poll(() => paintedAs(page, 'more words'), UI_WAIT).toEqual(['margin-hl-4-1']);
    const innerId = (
      await waitFor(async () => {
        const list = await user.caller.highlights.byNote({ id: noteId });
        return list.length === 2 ? list : undefined;
      })
    ).find((h) => h.id !== crossingId)?.id;
    // Painting leaves the article as React rendered it: no marks, no split text.
    expect(await page.locator('.reader-content mark').count()).toBe(0);
    expect(await content.innerHTML()).toBe(rendered);

    // The pointer over a highlight shows it as hovered and clickable; off it, not.
    const outer = await pointOnPainted(page, crossing);
    await page.mouse.move(outer.x, outer.y);
    await expect.poll(() => content.getAttribute('data-highlight-hover'), UI_WAIT).toBe('');
    expect(await page.evaluate(() => CSS.highlights.get('margin-hl-hover')?.size)).toBe(1);
    await page.mouse.move(2, 300);
    await expect.poll(() => content.getAttribute('data-highlight-hover'), UI_WAIT).toBeNull();

    // A click opens the card of the highlight under the pointer: the inner one where they overlap.
    await page.mouse.click(outer.x, outer.y);
    const card = page.getByTestId('highlight-card');
    await card.waitFor();
    expect(await card.getAttribute('data-highlight-id')).toBe(crossingId);
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    const inner = await pointOnPainted(page, 'more words');
    await page.mouse.click(inner.x, inner.y);
    await card.waitFor();
    expect(await card.getAttribute('data-highlight-id')).toBe(innerId);
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });

    expect(errors).toEqual([]);
    await context.close();
  });

  test('with the Highlight API: recolour and restyle in the card, delete and undo, reload: each repaints', async () => {
    const user = await app.user();
    const noteId = await savedArticle(user, '/restyle');
    const { text } = await user.caller.notes.get({ id: noteId });
    const phrase = 'follows with more words, so that';
    const at = text.indexOf(phrase);
    await user.caller.highlights.create({
      id: newId(),
      noteId,
      coreType: CoreType.highlight,
      slotId: 2,
      selectors: describeRange(text, at, at + phrase.length),
    });
    const { context, page, errors } = await app.signIn(`/?pi=${noteId}&vs=article`, { user });
    await expect.poll(() => paintedAs(page, phrase), UI_WAIT).toEqual(['margin-hl-2-1']);
    const point = await pointOnPainted(page, phrase);
    await page.mouse.click(point.x, point.y);
    const card = page.getByTestId('highlight-card');
    await card.waitFor();

    await card.getByTestId('card-colour-3').click();
    await expect.poll(() => paintedAs(page, phrase), UI_WAIT).toEqual(['margin-hl-3-1']);
    await card.getByTestId('card-style-3').click();
    await expect.poll(() => paintedAs(page, phrase), UI_WAIT).toEqual(['margin-hl-3-3']);
    expect(await highlightPaint(page, 'margin-hl-3-3')).toMatchObject({
      decoration: 'underline',
      decorationStyle: 'wavy',
    });

    // Delete, then Undo: gone from the registry, then back in it.
    await card.getByTestId('highlight-delete').click();
    await expect.poll(() => paintedAs(page, phrase), UI_WAIT).toEqual([]);
    await page.locator('[data-sonner-toast] button[data-button]').click();
    await expect.poll(() => paintedAs(page, phrase), UI_WAIT).toEqual(['margin-hl-3-3']);
    await expect
      .poll(async () => (await user.caller.highlights.byNote({ id: noteId }))[0], UI_WAIT)
      .toMatchObject({ slotId: 3, style: 3 });

    await page.reload();
    await expect.poll(() => paintedAs(page, phrase), UI_WAIT).toEqual(['margin-hl-3-3']);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the drawer of 300 highlights renders only the entries in view and jumps to one, which is flashed', async () => {
    const user = await app.user();
    const noteId = await savedArticle(user, '/many');
    const { text } = await user.caller.notes.get({ id: noteId });
    const words = [...text.matchAll(/\p{L}+/gu)];
    const ids = Array.from({ length: 300 }, () => newId());
    for (let batch = 0; batch < ids.length; batch += 25) {
      await Promise.all(
        ids.slice(batch, batch + 25).map((id, k) => {
          const i = batch + k;
          const word = words[i % words.length] as RegExpExecArray;
          return user.caller.highlights.create({
            id,
            noteId,
            coreType: CoreType.highlight,
            slotId: 1 + (i % 6),
            selectors: describeRange(text, word.index, word.index + word[0].length),
          });
        }),
      );
    }
    const { context, page, errors } = await app.signIn(`/?pi=${noteId}&vs=article`, { user });
    await expect.poll(async () => (await paintedRanges(page)).length, UI_WAIT).toBe(300);
    await page.getByTestId('reader-highlights').click();
    const panel = page.getByTestId('highlights-panel');
    const entries = panel.getByTestId('panel-placed').getByTestId('panel-entry');
    await entries.first().waitFor();
    expect(await page.getByTestId('reader-highlights').getAttribute('data-count')).toBe('300');
    const shown = await entries.count();
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(60);
    // Scrolled to its end, the drawer shows the last entries, still only a window of them.
    await panel.evaluate((drawer) => drawer.scrollTo(0, drawer.scrollHeight));
    await expect
      .poll(() =>
        page.evaluate(() =>
          Math.max(
            ...[...document.querySelectorAll('[data-testid="panel-placed"] > li')].map((li) =>
              Number(li.getAttribute('aria-posinset')),
            ),
          ),
        ),
      )
      .toBe(300);
    expect(await entries.count()).toBeLessThan(60);
    // A jump from the drawer scrolls the article to the highlight and flashes it.
    const target = entries.last();
    const targetId = (await target.getAttribute('data-highlight-id')) as string;
    expect(ids).toContain(targetId);
    await target.locator('.panel-quote').click();
    await panel.waitFor({ state: 'detached' });
    // The flash lies over the target's first line, in page coordinates. Its word is highlighted
    // elsewhere too (the 300 highlights go round the article's words), so the painted range that
    // is the target is the one with its text at the flash's place.
    const flashedAt =
      (await (
        await page.waitForFunction(() => {
          const box = document.querySelector<HTMLElement>('[data-testid="highlight-flash"]');
          return box && { left: Number.parseFloat(box.style.left), top: Number.parseFloat(box.style.top) };
        })
      ).jsonValue()) ?? undefined;
    const saved = (await user.caller.highlights.byNote({ id: noteId })).find((h) => h.id === targetId);
    await expect
      .poll(async () => {
        const box = await paintedBox(page, saved?.text ?? '', flashedAt);
        return box !== null && box.top > 0 && box.bottom < 800;
      }, UI_WAIT)
      .toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a text note, an image highlight, and a detached highlight listed apart', async () => {
    const user = await app.user();
    const noteId = await savedArticle(user, '/notes');
    const detachedId = newId();
    await user.caller.highlights.create({
      id: detachedId,
      noteId,
      coreType: CoreType.highlight,
      slotId: 5,
      selectors: describeRange('A sentence that is nowhere in this article at all.', 2, 30),
    });
    const { context, page } = await app.signIn(`/?pi=${noteId}&vs=article`, { user });
    await page.getByTestId('reader-content').waitFor();

    // The stored picture (not its placeholder, while it is being stored).
    const image = page.locator('.reader-content img[data-source]');
    await image.scrollIntoViewIfNeeded();
    await image.hover();
    await page.getByTestId('image-highlight').click();
    const imageHighlight = await waitFor(async () =>
      (await user.caller.highlights.byNote({ id: noteId })).find((h) => h.coreType === CoreType.image),
    );
    expect(imageHighlight.imageUrl).toBe(`${app.site.origin}/pic.png`);
    await page.locator(`.reader-content img[data-highlight-id="${imageHighlight.id}"]`).waitFor();

    await page.getByTestId('reader-highlights').click();
    const panel = page.getByTestId('highlights-panel');
    await panel.waitFor();
    expect(
      await panel.getByTestId('panel-unplaced').locator(`[data-highlight-id="${detachedId}"]`).count(),
    ).toBe(1);
    expect(
      await panel.getByTestId('panel-placed').locator(`[data-highlight-id="${imageHighlight.id}"]`).count(),
    ).toBe(1);
    await panel.getByTestId('panel-text-note-input').fill('Remember to reread the *second* paragraph.');
    await panel.getByTestId('panel-text-note-add').click();
    await panel.getByTestId('panel-text-note').locator('em').waitFor();
    const textNote = await waitFor(async () =>
      (await user.caller.highlights.byNote({ id: noteId })).find((h) => h.coreType === CoreType.textNote),
    );
    expect(textNote.text).toBe('Remember to reread the *second* paragraph.');
    await context.close();
  });

  test('a lost highlight is re-attached by selecting its text; Esc leaves re-attaching', async () => {
    const user = await app.user();
    const noteId = await savedArticle(user, '/reattach');
    const lostId = newId();
    await user.caller.highlights.create({
      id: lostId,
      noteId,
      coreType: CoreType.highlight,
      slotId: 4,
      selectors: describeRange('A sentence that is nowhere in this article at all.', 2, 30),
      annotation: 'Worth keeping.',
    });
    const { context, page } = await app.signIn(`/?pi=${noteId}&vs=article`, { user });
    await page.getByTestId('reader-content').waitFor();
    const openLost = async () => {
      await page.getByTestId('reader-highlights').click();
      const lost = page.getByTestId('panel-unplaced').locator(`[data-highlight-id="${lostId}"]`);
      await lost.getByText('Worth keeping.').waitFor();
      await lost.getByTestId('panel-reattach').click();
      await page.getByTestId('reattach-bar').waitFor();
    };

    // Esc with nothing selected leaves re-attaching; a selection then gets the usual colours.
    await openLost();
    await page.keyboard.press('Escape');
    await page.getByTestId('reattach-bar').waitFor({ state: 'detached' });
    expect(await page.getByTestId('reader-content').isVisible()).toBe(true);

    await openLost();
    // Esc over a selection drops only the selection: still re-attaching, still reading.
    await dragSelect(page, 'A second paragraph follows');
    await page.getByTestId('attach-tooltip').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('attach-tooltip').waitFor({ state: 'detached' });
    expect(await page.getByTestId('reattach-bar').isVisible()).toBe(true);
    expect(await page.getByTestId('reader-content').isVisible()).toBe(true);

    await dragSelect(page, 'Margin keeps what you read');
    await page.getByTestId('attach-tooltip').waitFor();
    expect(await page.getByTestId('selection-tooltip').count()).toBe(0);
    await page.getByTestId('attach-here').click();
    await page.getByTestId('reattach-bar').waitFor({ state: 'detached' });
    const attached = await waitFor(async () =>
      (await user.caller.highlights.byNote({ id: noteId })).find((h) => h.id === lostId && !h.detached),
    );
    expect(attached).toMatchObject({ text: 'Margin keeps what you read', slotId: 4 });
    await page.getByTestId('reader-highlights').click();
    const placed = page.getByTestId('panel-placed').locator(`[data-highlight-id="${lostId}"]`);
    await placed.waitFor();
    expect(await page.getByTestId('panel-unplaced').count()).toBe(0);
    await context.close();
  });

  test('the highlight list filters by colour and opens the reader scrolled to the highlight', async () => {
    const user = await app.user();
    const noteId = await savedArticle(user, '/list');
    const { text } = await user.caller.notes.get({ id: noteId });
    const quote = (phrase: string) => {
      const at = text.indexOf(phrase);
      return describeRange(text, at, at + phrase.length);
    };
    const yellowId = newId();
    const blueId = newId();
    await user.caller.highlights.create({
      id: yellowId,
      noteId,
      coreType: CoreType.highlight,
      slotId: 1,
      selectors: quote('Margin keeps what you read'),
      tags: ['intro'],
    });
    await user.caller.highlights.create({
      id: blueId,
      noteId,
      coreType: CoreType.highlight,
      slotId: 3,
      selectors: quote('the deep link target sentence'),
      annotation: 'Euler: $e^{i\\pi}+1=0$',
    });
    const { context, page } = await app.signIn('/highlights', { user });
    const items = page.getByTestId('highlight-item');
    await expect.poll(() => items.count(), UI_WAIT).toBe(2);
    // Newest first.
    expect(await items.first().getAttribute('data-highlight-id')).toBe(blueId);
    await items.first().locator('.katex').first().waitFor();

    await page.getByTestId('filter-colour-3').click();
    await expect.poll(() => items.count(), UI_WAIT).toBe(1);
    expect(new URL(page.url()).searchParams.get('colour')).toBe('3');
    await page.getByTestId('filter-colour-1').click();
    await expect.poll(async () => items.first().getAttribute('data-highlight-id'), UI_WAIT).toBe(yellowId);
    await page.getByTestId('filter-colour-1').click();
    await expect.poll(() => items.count(), UI_WAIT).toBe(2);
    await page.locator(`[data-highlight-id="${blueId}"] [data-testid="highlight-item-open"]`).click();
    await page.getByTestId('reader-content').waitFor();
    const url = new URL(page.url());
    expect(url.searchParams.get('pi')).toBe(noteId);
    expect(url.searchParams.get('nx')).toBe(blueId);
    await expect
      .poll(() => paintedAs(page, 'the deep link target sentence'), UI_WAIT)
      .toEqual(['margin-hl-3-1']);
    await page.getByTestId('highlight-flash').first().waitFor();
    await expect
      .poll(async () => {
        const box = await paintedBox(page, 'the deep link target sentence');
        return box !== null && box.top > 0 && box.bottom < 800;
      }, UI_WAIT)
      .toBe(true);
    await context.close();
  });
});
