import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons/Icon.tsx';
import { isTypingTarget } from '../../lib/keys.ts';
import { CurrentHighlight } from './CurrentHighlight.tsx';
import { highlightRects, type PaintedHighlights } from './painted-highlights.ts';
import { readerView, useReaderView } from './reader-view.ts';
import { ReaderShortcutSheet } from './ShortcutSheet.tsx';

/** A selection in the article's text, which Esc drops first (the highlight layer's key). */
function selectsIn(root: HTMLElement | null): boolean {
  const selection = document.getSelection();
  return Boolean(root && selection && !selection.isCollapsed && root.contains(selection.anchorNode));
}
const somethingOpen = () => document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]');

/** The first line of a painted highlight on screen now, if it is painted. */
function firstRect(painted: PaintedHighlights, id: string): DOMRect | undefined {
  const range = painted.rangeOf(id);
  return range && highlightRects(range)[0];
}

/** Brings a highlight to the middle of the screen unless all of its first line is on it already. */
function bringIntoView(painted: PaintedHighlights, id: string): void {
  const rect = firstRect(painted, id);
  if (!rect || (rect.top >= 0 && rect.bottom <= window.innerHeight)) return;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollBy({
    top: rect.top + rect.height / 2 - window.innerHeight / 2,
    behavior: reduced ? 'auto' : 'smooth',
  });
}

/**
 * The reader's keys: j / k move to the next / previous highlight in the article (from the screen
 * the user is on, the first time), f turns focus mode on or off and Esc leaves it, ? opens the
 * shortcut sheet. None while typing, with Ctrl, Alt or Cmd, or while a dialog or menu is open.
 * Also the ring on the current highlight and the way out of focus mode for a pointer.
 */
export function ReaderKeys({
  painted,
  root,
}: {
  painted: PaintedHighlights;
  root: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation();
  const { focus, shortcuts } = useReaderView();
  const [current, setCurrent] = useState<string | null>(null);
  const order = useMemo(
    () =>
      [...painted.placements].sort(([, a], [, b]) => a.start - b.start || a.end - b.end).map(([id]) => id),
    [painted],
  );
  const latest = useRef({ order, current, painted });
  latest.current = { order, current, painted };

  useEffect(() => {
    const move = (step: 1 | -1) => {
      const { order, current, painted } = latest.current;
      if (order.length === 0) return;
      let index = current ? order.indexOf(current) : -1;
      if (index >= 0) index = Math.min(order.length - 1, Math.max(0, index + step));
      else if (step > 0) {
        // From the screen the user is on: the first highlight not above it.
        index = order.findIndex((id) => (firstRect(painted, id)?.bottom ?? 0) > 0);
        if (index < 0) index = order.length - 1;
      } else {
        index = order.findLastIndex((id) => (firstRect(painted, id)?.top ?? 0) < window.innerHeight);
        if (index < 0) index = 0;
      }
      const id = order[index] as string;
      setCurrent(id);
      bringIntoView(painted, id);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.isComposing)
        return;
      if (isTypingTarget(event.target) || somethingOpen()) return;
      if (event.key === 'f') readerView.toggleFocus();
      else if (event.key === 'j') move(1);
      else if (event.key === 'k') move(-1);
      else if (event.key === '?') readerView.setShortcuts(true);
      // Esc drops a selection first (the highlight layer's), and only then leaves focus mode.
      else if (event.key === 'Escape' && readerView.current().focus && !selectsIn(root.current))
        readerView.setFocus(false);
      else return;
      event.preventDefault();
    };
    // Capture: before the reader's own Esc, which would leave the note.
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [root]);
  // The app's chrome comes back with the next screen.
  useEffect(() => () => readerView.reset(), []);

  const index = current ? order.indexOf(current) : -1;
  return (
    <>
      {index >= 0 && current && <CurrentHighlight id={current} painted={painted} root={root} />}
      <p className="visually-hidden" aria-live="polite" data-testid="current-highlight-position">
        {index >= 0 ? t('readerTools.position', { index: index + 1, total: order.length }) : ''}
      </p>
      {focus && (
        <button
          type="button"
          className="focus-exit"
          data-testid="focus-exit"
          aria-label={t('readerTools.leaveFocus')}
          title={`${t('readerTools.leaveFocus')} (Esc)`}
          onClick={() => readerView.setFocus(false)}
        >
          <Icon name="leaveFocus" />
        </button>
      )}
      {shortcuts && <ReaderShortcutSheet onClose={() => readerView.setShortcuts(false)} />}
    </>
  );
}
