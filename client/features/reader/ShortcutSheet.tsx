import { useTranslation } from 'react-i18next';
import { SmallDialog } from '../../components/SmallDialog.tsx';

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
export function ShortcutSheet({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return (
    <SmallDialog
      title={t('readerTools.shortcutsTitle')}
      testId="shortcut-sheet"
      className="shortcut-sheet"
      onClose={onClose}
    >
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
    </SmallDialog>
  );
}
