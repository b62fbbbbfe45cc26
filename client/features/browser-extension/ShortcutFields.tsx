import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_SHORTCUTS,
  EXTENSION_SHORTCUTS,
  type ExtensionShortcut,
  type Shortcuts,
  shortcutOf,
  zShortcuts,
} from '../../../src/schemas/extension.ts';
import { useUserSettings } from '../account/use-user-settings.ts';

/** Keys that only start a combination: the recorder waits for the key they modify. */
const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'OS', 'CapsLock']);

/** A combination pressed but not saved: what it was, and the translation key of why not. */
interface Refused {
  keys: string;
  error: string;
}

/** Why a set of shortcuts cannot be saved (a zod message key), the pressed one's own problem first. */
function refusalOf(shortcuts: Shortcuts, pressed: ExtensionShortcut): string | null {
  const result = zShortcuts.safeParse(shortcuts);
  if (result.success) return null;
  const issue = result.error.issues.find((i) => i.path[0] === pressed) ?? result.error.issues[0];
  return issue?.message ?? 'errors.shortcutInvalid';
}

/**
 * One shortcut: focus the field and press a combination to record it. It is saved when valid;
 * otherwise the field keeps what was pressed, with why, until Escape or leaving it.
 */
function ShortcutField({
  action,
  shortcuts,
  hintId,
  onRecord,
}: {
  action: ExtensionShortcut;
  shortcuts: Shortcuts;
  /** The id of the words that say how to record. */
  hintId: string;
  onRecord: (next: Shortcuts) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [listening, setListening] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);
  const stop = () => {
    setListening(false);
    setRefused(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Tab still moves on: the recorder must not trap the keyboard.
    if (event.key === 'Tab' || event.nativeEvent.isComposing || MODIFIER_KEYS.has(event.key)) return;
    event.preventDefault();
    if (event.key === 'Escape') return stop();
    const keys = shortcutOf(event);
    const error = keys ? refusalOf({ ...shortcuts, [action]: keys }, action) : 'errors.shortcutInvalid';
    if (keys && !error) {
      stop();
      if (keys !== shortcuts[action]) onRecord({ ...shortcuts, [action]: keys });
      return;
    }
    setListening(true);
    setRefused({ keys: keys ?? '', error: error ?? 'errors.shortcutInvalid' });
  };

  const shown = refused ? refused.keys : listening ? '' : shortcuts[action];
  return (
    <li className="ext-shortcut" data-testid={`shortcut-${action}`}>
      <label className="ext-shortcut-label" htmlFor={id}>
        {t(`extSettings.shortcut.${action}`)}
      </label>
      <input
        id={id}
        className="text-control ext-shortcut-keys mono"
        dir="ltr"
        readOnly
        value={shown}
        placeholder={t('extSettings.pressKeys')}
        aria-invalid={refused ? true : undefined}
        aria-describedby={refused ? `${id}-error` : hintId}
        data-testid={`shortcut-input-${action}`}
        data-listening={listening || undefined}
        onFocus={() => setListening(true)}
        onBlur={stop}
        onKeyDown={onKeyDown}
      />
      {refused && (
        <span id={`${id}-error`} className="field-error ext-shortcut-error" role="alert">
          {t(refused.error)}
        </span>
      )}
    </li>
  );
}

/** The extension's keyboard shortcuts (highlight, annotate, save), recorded and saved to the account. */
export function ShortcutFields() {
  const { t } = useTranslation();
  const hintId = useId();
  const { settings, update } = useUserSettings();
  const shortcuts = settings?.shortcuts ?? DEFAULT_SHORTCUTS;
  const isDefault = EXTENSION_SHORTCUTS.every((action) => shortcuts[action] === DEFAULT_SHORTCUTS[action]);
  return (
    <>
      <p id={hintId} className="muted">
        {t('extSettings.shortcutsHint')}
      </p>
      <ul className="ext-shortcuts">
        {EXTENSION_SHORTCUTS.map((action) => (
          <ShortcutField
            key={action}
            action={action}
            shortcuts={shortcuts}
            hintId={hintId}
            onRecord={(next) => update({ shortcuts: next })}
          />
        ))}
      </ul>
      <div>
        <button
          type="button"
          className="button button-small"
          disabled={!settings || isDefault}
          data-testid="shortcuts-reset"
          onClick={() => update({ shortcuts: null })}
        >
          {t('extSettings.resetShortcuts')}
        </button>
      </div>
    </>
  );
}
