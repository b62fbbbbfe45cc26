import { useTranslation } from 'react-i18next';
import type { ColourSlot } from '../../../src/enums.ts';
import {
  COLOUR_SLOTS,
  HIGHLIGHT_STYLES,
  highlightVars,
  STYLE_LABEL_KEYS,
  styleClass,
} from './highlight-look.ts';
import { useColourNames } from './highlight-palette.ts';

/** The six colour buttons of the text tooltip and the highlight card. */
export function ColourButtons(props: {
  className: string;
  testIdPrefix: string;
  pressed?: number;
  /** The tooltip announces keys 1–6; the card does not take them. */
  withShortcuts?: boolean;
  onPick: (slot: ColourSlot) => void;
}) {
  const { t } = useTranslation();
  const colourName = useColourNames();
  return (
    <fieldset className={props.className} aria-label={t('highlights.colourLabel')}>
      {COLOUR_SLOTS.map((slot) => {
        const label = colourName(slot);
        return (
          <button
            key={slot}
            type="button"
            className="tooltip-button colour-button"
            data-testid={`${props.testIdPrefix}-colour-${slot}`}
            aria-label={props.withShortcuts ? `${label} (${slot})` : label}
            aria-keyshortcuts={props.withShortcuts ? String(slot) : undefined}
            aria-pressed={props.pressed === undefined ? undefined : props.pressed === slot}
            title={props.withShortcuts ? `${label} · ${slot}` : undefined}
            onClick={() => props.onPick(slot)}
          >
            <span className="colour-dot" style={highlightVars(slot)} aria-hidden="true" />
          </button>
        );
      })}
    </fieldset>
  );
}

/** The four highlight styles, each shown as a sample in the given colour slot. */
export function StyleButtons(props: {
  className: string;
  testIdPrefix: string;
  pressed: number;
  slot: number;
  onPick: (style: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className={props.className} aria-label={t('highlights.styleLabel')}>
      {HIGHLIGHT_STYLES.map((value) => (
        <button
          key={value}
          type="button"
          className="tooltip-button style-button"
          data-testid={`${props.testIdPrefix}-style-${value}`}
          aria-label={t(STYLE_LABEL_KEYS[value] as string)}
          aria-pressed={props.pressed === value}
          title={t(STYLE_LABEL_KEYS[value] as string)}
          onClick={() => props.onPick(value)}
        >
          <span
            className={`style-sample ${styleClass(value)}`}
            style={highlightVars(props.slot)}
            aria-hidden="true"
          >
            A
          </span>
        </button>
      ))}
    </fieldset>
  );
}
