import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ColourSlot } from '../../../src/enums.ts';
import { isStoredColour } from '../../../src/rules/hex-colour.ts';

/** What the hex field holds, as a stored colour when it is one ('64b5f6' and '#64b5f6' → '#64B5F6'). */
function readHex(text: string): string | null {
  const trimmed = text.trim();
  const hex = trimmed.startsWith('#') ? trimmed : `#${trimmed}`;
  return isStoredColour(hex) ? hex.toUpperCase() : null;
}

/** One colour slot: a colour picker, its hex code, and the way back to the default. */
export function ColourSlotField({
  slot,
  value,
  isDefault,
  onChange,
  onDefault,
}: {
  slot: ColourSlot;
  /** '#RRGGBB'. */
  value: string;
  isDefault: boolean;
  onChange: (hex: string) => void;
  onDefault: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(value);
  // The colour changed elsewhere (the picker, a reset): the field follows unless it already says so.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    if (readHex(text) !== value) setText(value);
  }
  const invalid = readHex(text) === null;
  const name = t('colorTheme.slotName', { number: slot });
  return (
    <li className="colour-slot" data-testid={`colour-slot-${slot}`} data-colour={value}>
      <input
        type="color"
        className="colour-slot-picker"
        value={value.toLowerCase()}
        aria-label={t('colorTheme.pickColour', { number: slot })}
        data-testid={`colour-input-${slot}`}
        onChange={(event) => onChange(event.target.value.toUpperCase())}
      />
      <label className="colour-slot-name" htmlFor={id}>
        {name}
        <span className="colour-slot-key" aria-hidden="true">
          {slot}
        </span>
      </label>
      <input
        id={id}
        className="text-control colour-slot-hex mono"
        dir="ltr"
        spellCheck={false}
        autoComplete="off"
        maxLength={7}
        value={text}
        aria-label={t('colorTheme.hexLabel', { number: slot })}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-error` : undefined}
        data-testid={`colour-hex-${slot}`}
        onChange={(event) => {
          setText(event.target.value);
          const hex = readHex(event.target.value);
          if (hex) onChange(hex);
        }}
      />
      <button
        type="button"
        className="button button-small"
        disabled={isDefault}
        aria-label={t('colorTheme.useDefaultLabel', { number: slot })}
        data-testid={`colour-default-${slot}`}
        onClick={onDefault}
      >
        {t('colorTheme.useDefault')}
      </button>
      {invalid && (
        <span id={`${id}-error`} className="field-error colour-slot-error" role="alert">
          {t('colorTheme.hexInvalid')}
        </span>
      )}
    </li>
  );
}
