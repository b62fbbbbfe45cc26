import type { Frame, Page } from 'playwright-core';

export interface DragWhere {
  /** The text to search: a CSS selector (default the body). */
  within?: string;
  /** Search the open shadow root of the element this selector finds instead. */
  shadowHost?: string;
  /** A frame of the page to select in (its position on the page is added). */
  frame?: Frame;
  /** Scroll the phrase to the middle of the view first (default); false keeps the page as it is. */
  scroll?: boolean;
}

/**
 * Selects `phrase` (inside one text node) with a real mouse drag, as a
 * reader would: the app or the extension then reacts to the mouse, not to a scripted range.
 */
export async function dragSelect(page: Page, phrase: string, where: DragWhere = {}): Promise<void> {
  const target = where.frame ?? page.mainFrame();
  const box = await target.evaluate(
    ({ wanted, within, host, scroll }) => {
      const root = host
        ? (document.querySelector(host)?.shadowRoot as ShadowRoot)
        : (document.querySelector(within) as HTMLElement);
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        const at = node.data.indexOf(wanted);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + wanted.length);
        if (scroll) node.parentElement?.scrollIntoView({ block: 'center' });
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const first = rects[0] as DOMRect;
        const last = rects.at(-1) as DOMRect;
        return {
          x1: first.left + 1,
          y1: first.top + first.height / 2,
          x2: last.right - 1,
          y2: last.top + last.height / 2,
        };
      }
      throw new Error(`not on the page: ${wanted}`);
    },
    {
      wanted: phrase,
      within: where.within ?? 'body',
      host: where.shadowHost ?? null,
      scroll: where.scroll ?? true,
    },
  );
  const offset = where.frame ? await (await where.frame.frameElement()).boundingBox() : null;
  const dx = offset?.x ?? 0;
  const dy = offset?.y ?? 0;
  await page.mouse.move(box.x1 + dx, box.y1 + dy);
  await page.mouse.down();
  await page.mouse.move(box.x2 + dx, box.y2 + dy, { steps: 8 });
  await page.mouse.up();
}
