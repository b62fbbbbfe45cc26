import { useEffect, useRef } from 'react';
import { isTypingTarget } from '../../lib/keys.ts';

/**
 * The list's keys: ArrowUp/ArrowDown move the active row within bounds, Enter opens it, x toggles
 * its selection, Escape clears the selection. Ignored while typing or while a dialog is open.
 */
export function ListKeyboard(props: {
  count: number;
  active: number;
  move(index: number): void;
  open(index: number): void;
  toggle(index: number): void;
  clear(): void;
}) {
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { count, active, move, open, toggle, clear } = latest.current;
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || count === 0) return;
      if (isTypingTarget(event.target) || document.querySelector('[role="dialog"], [role="alertdialog"]'))
        return;
      const onControl = (event.target as HTMLElement | null)?.closest?.('button, a, input, summary');
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        move(event.key === 'ArrowDown' ? Math.min(active + 1, count - 1) : Math.max(active - 1, 0));
      } else if (event.key === 'Escape') clear();
      else if (active < 0 || active >= count) return;
      else if (event.key === 'Enter' && !onControl) {
        event.preventDefault();
        open(active);
      } else if (event.key === 'x' && !event.shiftKey) {
        event.preventDefault();
        toggle(active);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return null;
}
