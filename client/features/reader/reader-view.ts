import { useSyncExternalStore } from 'react';

// How the open reader is shown, shared by its action bar and its keys: focus mode (the app's
// chrome hidden, marked on <html> for the stylesheet) and whether the shortcut sheet is open.

interface ReaderView {
  focus: boolean;
  shortcuts: boolean;
}

let view: ReaderView = { focus: false, shortcuts: false };
const listeners = new Set<() => void>();

function change(next: Partial<ReaderView>): void {
  view = { ...view, ...next };
  document.documentElement.toggleAttribute('data-reader-focus', view.focus);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useReaderView(): ReaderView {
  return useSyncExternalStore(subscribe, () => view);
}

export const readerView = {
  current: (): ReaderView => view,
  setFocus: (focus: boolean) => change({ focus }),
  toggleFocus: () => change({ focus: !view.focus }),
  setShortcuts: (shortcuts: boolean) => change({ shortcuts }),
  /** The reader closed: the app's chrome comes back. */
  reset: () => change({ focus: false, shortcuts: false }),
};
