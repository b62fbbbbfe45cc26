import { Popover } from 'radix-ui';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Bounds,
  clampToBounds,
  READER_FONT_SIZE,
  READER_FONTS,
  READER_LINE_HEIGHT,
  READER_WIDTH,
} from '../../../src/rules/reader-typography.ts';
import { useReaderTypography } from './reader-typography.ts';
import '../../styles/switch.css';

/** A value with a button either side, each a step towards its bound (and off at it). */
function Stepper({
  label,
  value,
  shown,
  bounds,
  lessLabel,
  moreLabel,
  testId,
  className = '',
  onChange,
}: {
  label: string;
  value: number;
  shown: string;
  bounds: Bounds;
  lessLabel: string;
  moreLabel: string;
  testId: string;
  className?: string;
  onChange(value: number): void;
}) {
  const outputId = useId();
  const step = (by: number) => onChange(clampToBounds(value + by, bounds));
  return (
    <div className={`typography-row ${className}`} data-testid={testId}>
      <label htmlFor={outputId} className="typography-label">
        {label}
      </label>
      <div className="typography-stepper">
        <button
          type="button"
          className="typography-step"
          aria-label={lessLabel}
          disabled={value <= bounds.min}
          data-testid={`${testId}-less`}
          onClick={() => step(-bounds.step)}
        >
          <span aria-hidden="true">−</span>
        </button>
        <output id={outputId} className="typography-value" aria-live="polite" data-testid={`${testId}-value`}>
          {shown}
        </output>
        <button
          type="button"
          className="typography-step"
          aria-label={moreLabel}
          disabled={value >= bounds.max}
          data-testid={`${testId}-more`}
          onClick={() => step(bounds.step)}
        >
          <span aria-hidden="true">+</span>
        </button>
      </div>
    </div>
  );
}

/** The "Aa" panel: font, size, line height, width and justification, applied as they change. */
export function TypographyPanel({ lang }: { lang: string | null | undefined }) {
  const { t, i18n } = useTranslation();
  const { value, chosen, change, reset } = useReaderTypography(lang);
  const fontName = useId();
  const justifyId = useId();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  const pixels = (n: number) => t('readerTools.pixels', { value: number.format(n) });
  return (
    <Popover.Root>
      <Popover.Trigger
        className="button reader-icon-button reader-aa"
        aria-label={t('readerTools.typography')}
        title={t('readerTools.typography')}
        data-testid="reader-typography"
      >
        <span aria-hidden="true">Aa</span>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="typography-panel"
          align="end"
          sideOffset={6}
          collisionPadding={8}
          aria-label={t('readerTools.typography')}
          data-testid="typography-panel"
        >
          <fieldset className="typography-fonts">
            <legend className="typography-label">{t('readerTools.font')}</legend>
            {READER_FONTS.map((font) => (
              <label key={font} className="typography-font" data-testid={`typography-font-${font}`}>
                <input
                  type="radio"
                  name={fontName}
                  value={font}
                  checked={value.font === font}
                  onChange={() => change({ readerFont: font })}
                />
                <span className="typography-sample" data-font={font} aria-hidden="true">
                  {t('readerTools.fontSample')}
                </span>
                <span className="typography-font-name">{t(`readerTools.fonts.${font}`)}</span>
              </label>
            ))}
          </fieldset>
          <Stepper
            label={t('readerTools.fontSize')}
            value={value.fontSize}
            shown={pixels(value.fontSize)}
            bounds={READER_FONT_SIZE}
            lessLabel={t('readerTools.smaller')}
            moreLabel={t('readerTools.larger')}
            testId="typography-size"
            onChange={(readerFontSize) => change({ readerFontSize })}
          />
          <Stepper
            label={t('readerTools.lineHeight')}
            value={value.lineHeight}
            shown={number.format(value.lineHeight)}
            bounds={READER_LINE_HEIGHT}
            lessLabel={t('readerTools.tighter')}
            moreLabel={t('readerTools.looser')}
            testId="typography-line-height"
            onChange={(readerLineHeight) => change({ readerLineHeight })}
          />
          <Stepper
            label={t('readerTools.width')}
            value={value.width}
            shown={pixels(value.width)}
            bounds={READER_WIDTH}
            lessLabel={t('readerTools.narrower')}
            moreLabel={t('readerTools.wider')}
            testId="typography-width"
            className="typography-width-row"
            onChange={(readerWidth) => change({ readerWidth })}
          />
          <div className="typography-row">
            <label htmlFor={justifyId} className="typography-label">
              {t('readerTools.justify')}
            </label>
            <input
              id={justifyId}
              type="checkbox"
              role="switch"
              aria-checked={value.justify}
              className="switch"
              checked={value.justify}
              data-testid="typography-justify"
              onChange={(event) => change({ readerJustify: event.target.checked })}
            />
          </div>
          <button
            type="button"
            className="button typography-reset"
            disabled={!chosen}
            data-testid="typography-reset"
            onClick={reset}
          >
            {t('readerTools.reset')}
          </button>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
