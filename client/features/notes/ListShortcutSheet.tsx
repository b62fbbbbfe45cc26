import { useTranslation } from 'react-i18next';
import { type Shortcut, ShortcutSheet } from '../../components/ShortcutSheet.tsx';

/** Every key the note list answers to (ListKeyboard.tsx). */
const LIST_SHORTCUTS: readonly Shortcut[] = [
  { keys: ['↓'], labelKey: 'listKeys.next' },
  { keys: ['↑'], labelKey: 'listKeys.previous' },
  { keys: ['Enter'], labelKey: 'listKeys.open' },
  { keys: ['x'], labelKey: 'listKeys.select' },
  { keys: ['Esc'], labelKey: 'listKeys.clear' },
  { keys: ['?'], labelKey: 'listKeys.help' },
];

/** The list's keyboard shortcuts, opened with `?`. */
export function ListShortcutSheet({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return <ShortcutSheet title={t('listKeys.title')} shortcuts={LIST_SHORTCUTS} onClose={onClose} />;
}
