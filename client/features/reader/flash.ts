import { highlightElements } from './highlight-marks.ts';

const FLASH_MS = 1600;

/** True when the highlight's first painted element is inside the viewport. */
export function highlightInView(root: HTMLElement, id: string): boolean {
  const rect = highlightElements(root, id)[0]?.getBoundingClientRect();
  return rect !== undefined && rect.top >= 0 && rect.bottom <= window.innerHeight;
}

/** Scrolls a painted highlight to the middle of the screen and flashes it. False if it is not painted. */
export function flashHighlight(root: HTMLElement, id: string, { flash = true } = {}): boolean {
  const elements = highlightElements(root, id);
  const first = elements[0];
  if (!first) return false;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  first.scrollIntoView({ block: 'center', behavior: reduced || !flash ? 'auto' : 'smooth' });
  if (!flash) return true;
  for (const element of elements) {
    element.classList.remove('hl-flash');
    void element.offsetWidth;
    element.classList.add('hl-flash');
  }
  setTimeout(() => {
    for (const element of elements) element.classList.remove('hl-flash');
  }, FLASH_MS);
  return true;
}
