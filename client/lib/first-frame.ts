import { useSyncExternalStore } from 'react';

let shown = false;
let scheduled = false;
const listeners = new Set<() => void>();

function markShown(): void {
  if (shown) return;
  shown = true;
  for (const listener of listeners) listener();
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  // The next frame's rendering, then the task after it: past the paint of the frame now due.
  // Once for the page, however many dates wait for it.
  if (!shown && !scheduled) {
    scheduled = true;
    requestAnimationFrame(() => setTimeout(markShown, 0));
  }
  return () => listeners.delete(onChange);
}

/**
 * False until the page's first frame has painted, so work the first screen can do without waits
 * for it: the first Intl.DateTimeFormat of a page load costs ~20 ms (ICU's set-up), as long as
 * the rest of the first card list's render.
 */
export function useAfterFirstFrame(): boolean {
  return useSyncExternalStore(subscribe, () => shown);
}
