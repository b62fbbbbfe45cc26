import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import { highlightVars } from '../highlights/highlight-look.ts';

/**
 * Shown while a highlight that could not be placed is being re-attached: what to do, the
 * highlight's text, and a way out (the button or Esc when nothing is selected).
 */
export function ReattachBar({ highlight, onCancel }: { highlight: Highlight; onCancel(): void }) {
  const { t } = useTranslation();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (!document.getSelection()?.isCollapsed) return;
      event.preventDefault();
      onCancel();
    };
    // Captured, so the reader's own Esc (back to the list) does not also fire.
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [onCancel]);
  return createPortal(
    <div
      className="reattach-bar"
      role="status"
      data-testid="reattach-bar"
      style={highlightVars(highlight.slotId)}
    >
      <div className="reattach-text">
        <p className="reattach-prompt">{t('highlights.reattachPrompt')}</p>
        <p className="reattach-quote" dir="auto">
          {highlight.text}
        </p>
      </div>
      <button type="button" className="button" data-testid="reattach-cancel" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </div>,
    document.body,
  );
}
