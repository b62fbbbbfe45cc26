import { useTranslation } from 'react-i18next';
import { type Shortcut, ShortcutSheet } from '../../components/ShortcutSheet.tsx';

/** Every key the reader answers to, in the order a reader meets them. */
const READER_SHORTCUTS: readonly Shortcut[] = [
  { keys: ['j'], labelKey: 'readerTools.shortcuts.next' },
  { keys: ['k'], labelKey: 'readerTools.shortcuts.previous' },
  { keys: ['h'], labelKey: 'readerTools.shortcuts.highlight' },
  { keys: ['1', '6'], labelKey: 'readerTools.shortcuts.colour' },
  { keys: ['Enter'], labelKey: 'readerTools.shortcuts.attach' },
  { keys: ['f'], labelKey: 'readerTools.shortcuts.focus' },
  { keys: ['Esc'], labelKey: 'readerTools.shortcuts.escape' },
  { keys: ['?'], labelKey: 'readerTools.shortcuts.help' },
];

/** The reader's keyboard shortcuts, opened with `?` or from the "More" menu. */
export function ReaderShortcutSheet({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return (
    <ShortcutSheet title={t('readerTools.shortcutsTitle')} shortcuts={READER_SHORTCUTS} onClose={onClose} />
  );
}
