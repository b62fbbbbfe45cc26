import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { withTranslations } from '../../i18n.ts';
import { isTypingTarget } from '../../lib/keys.ts';

const ListShortcutSheet = lazy(() =>
  withTranslations(import('./ListShortcutSheet.tsx'), 'listShortcuts').then((m) => ({
    default: m.ListShortcutSheet,
  })),
);

/**
 * The list's keys: ArrowUp/ArrowDown move the active row within bounds, Enter opens it, x toggles
 * its selection, Escape clears the selection, ? shows them all. Ignored while typing or while a
 * dialog is open.
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
  const [shortcuts, setShortcuts] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { count, active, move, open, toggle, clear } = latest.current;
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (isTypingTarget(event.target) || document.querySelector('[role="dialog"], [role="alertdialog"]'))
        return;
      if (event.key === '?') {
        event.preventDefault();
        setShortcuts(true);
        return;
      }
      if (count === 0) return;
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
  return (
    shortcuts && (
      <Suspense fallback={null}>
        <ListShortcutSheet onClose={() => setShortcuts(false)} />
      </Suspense>
    )
  );
}
