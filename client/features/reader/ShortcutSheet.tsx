import { Dialog } from 'radix-ui';
import { useTranslation } from 'react-i18next';

/** Every key the reader answers to, in the order a reader meets them. */
const SHORTCUTS = [
  { keys: ['j'], labelKey: 'readerTools.shortcuts.next' },
  { keys: ['k'], labelKey: 'readerTools.shortcuts.previous' },
  { keys: ['h'], labelKey: 'readerTools.shortcuts.highlight' },
  { keys: ['1', '6'], labelKey: 'readerTools.shortcuts.colour' },
  { keys: ['Enter'], labelKey: 'readerTools.shortcuts.attach' },
  { keys: ['f'], labelKey: 'readerTools.shortcuts.focus' },
  { keys: ['Esc'], labelKey: 'readerTools.shortcuts.escape' },
  { keys: ['?'], labelKey: 'readerTools.shortcuts.help' },
] as const;

/** The reader's keyboard shortcuts, opened with `?` or from the "More" menu; Esc closes it. */
export function ShortcutSheet({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog shortcut-sheet"
          data-testid="shortcut-sheet"
          aria-describedby={undefined}
        >
          <div className="shortcut-sheet-head">
            <Dialog.Title className="dialog-title">{t('readerTools.shortcutsTitle')}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label={t('common.close')}>
              <span aria-hidden="true">×</span>
            </Dialog.Close>
          </div>
          <dl className="shortcut-list">
            {SHORTCUTS.map(({ keys, labelKey }) => (
              <div key={labelKey} className="shortcut-row" data-testid="shortcut-row">
                <dt>
                  {keys.map((key, i) => (
                    <span key={key}>
                      {i > 0 && '–'}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{t(labelKey)}</dd>
              </div>
            ))}
          </dl>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
