import { highlightColours } from '../highlights/highlight-look.ts';
import { highlightRects, type PaintedHighlights } from './painted-highlights.ts';

const FLASH_MS = 1600;

/** The boxes of the flash running now, removed when the next one starts. */
let flashing: HTMLElement[] = [];

/** True when the highlight's first line is inside the viewport. */
export function highlightInView(painted: PaintedHighlights, id: string): boolean {
  const range = painted.rangeOf(id);
  const rect = range && highlightRects(range)[0];
  return rect !== undefined && rect.top >= 0 && rect.bottom <= window.innerHeight;
}

/**
 * Scrolls a painted highlight to the middle of the screen and flashes a ring around each of its
 * lines (boxes laid over the page, as a range painted by the Highlight API has no element to
 * animate). False if it is not painted.
 */
export function flashHighlight(painted: PaintedHighlights, id: string, { flash = true } = {}): boolean {
  const range = painted.rangeOf(id);
  const rects = range && highlightRects(range);
  const first = rects?.[0];
  if (!rects || !first) return false;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const top = first.top + first.height / 2 - window.innerHeight / 2;
  if (!flash) {
    window.scrollBy({ top, behavior: 'auto' });
    return true;
  }
  for (const box of flashing) box.remove();
  const colours = highlightColours(painted.placements.get(id)?.slotId ?? 1);
  flashing = rects.map((rect) => {
    const box = document.createElement('div');
    box.className = 'hl-flash-box hl-flash';
    box.dataset.testid = 'highlight-flash';
    for (const [name, value] of Object.entries(colours)) box.style.setProperty(name, value);
    // Page coordinates, so the boxes stay on their text while the page scrolls.
    Object.assign(box.style, {
      left: `${rect.left + window.scrollX}px`,
      top: `${rect.top + window.scrollY}px`,
      width: `${rect.width}px`,
      height: `${rect.height}px`,
    });
    document.body.append(box);
    return box;
  });
  const shown = flashing;
  setTimeout(() => {
    for (const box of shown) box.remove();
  }, FLASH_MS);
  window.scrollBy({ top, behavior: reduced ? 'auto' : 'smooth' });
  return true;
}
