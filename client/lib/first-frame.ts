import { useSyncExternalStore } from 'react';

let shown = false;
const listeners = new Set<() => void>();

/** After the first frame the page painted (and never on the server). */
function markShown(): void {
  if (shown) return;
  shown = true;
  for (const listener of listeners) listener();
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  // The next frame's rendering, then the task after it: past the paint of the frame now due.
  if (!shown) requestAnimationFrame(() => setTimeout(markShown, 0));
  return () => listeners.delete(onChange);
}

/**
 * False until the page's first frame has painted: work the first screen can do without (the
 * first Intl.DateTimeFormat of a date, ~15 ms) waits for it. False on the server and in the
 * hydration of its markup, so both render the same.
 */
export function useAfterFirstFrame(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => shown,
    () => false,
  );
}
