import { useTranslation } from 'react-i18next';
import { SmallDialog } from './SmallDialog.tsx';
import '../styles/shortcut-sheet.css';

/** A key or a range of keys (`['1', '6']`: 1 to 6) and the translation key of what it does. */
export interface Shortcut {
  keys: readonly string[];
  labelKey: string;
}

/** A screen's keyboard shortcuts, in the order its reader meets them; Esc closes the sheet. */
export function ShortcutSheet({
  title,
  shortcuts,
  onClose,
}: {
  title: string;
  shortcuts: readonly Shortcut[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <SmallDialog title={title} testId="shortcut-sheet" className="shortcut-sheet" onClose={onClose}>
      <dl className="shortcut-list">
        {shortcuts.map(({ keys, labelKey }) => (
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
