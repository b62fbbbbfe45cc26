import type { ReactElement } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { type ColourSlot, HighlightStyle, TextTooltipStyle } from '../../../src/enums.ts';
import { ColourButtons, StyleButtons } from '../highlights/HighlightPickers.tsx';
import { COLOUR_SLOTS, highlightVars, styleClass } from '../highlights/highlight-look.ts';
import { type Palette, paletteStyle } from '../highlights/highlight-palette.ts';
import '../../styles/highlights.css';

/** The style each slot is drawn in on the "strong" line: underlines, wavy lines, bold. */
const STRONG_STYLES: Record<ColourSlot, HighlightStyle> = {
  1: HighlightStyle.underline,
  2: HighlightStyle.underline,
  3: HighlightStyle.wavyUnderline,
  4: HighlightStyle.wavyUnderline,
  5: HighlightStyle.bold,
  6: HighlightStyle.bold,
};

/** A sample highlight as the reader's fallback painter draws it (a mark in a style's class). */
function sampleMarks(prefix: string, styleOf: (slot: ColourSlot) => HighlightStyle) {
  const marks: Record<string, ReactElement> = {};
  for (const slot of COLOUR_SLOTS) {
    marks[`${prefix}${slot}`] = (
      <mark
        className={`hl ${styleClass(styleOf(slot))}`}
        style={highlightVars(slot)}
        data-testid={`preview-${prefix === 'c' ? 'light' : 'strong'}-${slot}`}
      />
    );
  }
  return marks;
}

const noPick = () => {};

/** The selection tooltip as the reader will show it for `style` (inert: a picture, not controls). */
function TooltipSample({ style }: { style: TextTooltipStyle }) {
  const { t } = useTranslation();
  if (style === TextTooltipStyle.hide || style === TextTooltipStyle.autoHighlight) return null;
  return (
    <div className="selection-tooltip colour-preview-tooltip" data-testid="preview-tooltip" inert>
      {style === TextTooltipStyle.defaultColour ? (
        <span className="tooltip-button tooltip-highlight">
          <span className="colour-dot" style={highlightVars(1)} aria-hidden="true" />
          {t('highlights.highlight')}
        </span>
      ) : (
        <>
          <ColourButtons className="tooltip-slot" testIdPrefix="preview" onPick={noPick} />
          <StyleButtons
            className="tooltip-slot"
            testIdPrefix="preview"
            pressed={HighlightStyle.background}
            slot={1}
            onPick={noPick}
          />
          <div className="tooltip-slot">
            <span className="tooltip-button" aria-hidden="true">
              ⋯
            </span>
          </div>
        </>
      )}
    </div>
  );
}

/**
 * A sample paragraph with highlights in each colour, light (backgrounds) and strong (lines and
 * bold), and the text tooltip as `tooltipStyle` makes it, in the theme shown. `palette` may be
 * one not saved yet: the preview carries its own copy of the palette's properties.
 */
export function ColourPreview({
  palette,
  tooltipStyle,
}: {
  palette: Palette;
  tooltipStyle: TextTooltipStyle;
}) {
  const { t } = useTranslation();
  const auto = tooltipStyle === TextTooltipStyle.autoHighlight;
  const quiet = tooltipStyle === TextTooltipStyle.hide || auto;
  const selection = auto ? (
    <mark className={`hl ${styleClass(HighlightStyle.background)}`} style={highlightVars(1)} />
  ) : (
    <span className="colour-preview-selection" />
  );
  return (
    <figure className="colour-preview" style={paletteStyle(palette)} data-testid="colour-preview">
      <figcaption className="eyebrow">{t('colorTheme.previewTitle')}</figcaption>
      <div className="colour-preview-page">
        <h3>{t('colorTheme.previewHeading')}</h3>
        <p>
          <Trans
            i18nKey="colorTheme.previewLight"
            components={sampleMarks('c', () => HighlightStyle.background)}
          />
        </p>
        <p>
          <Trans
            i18nKey="colorTheme.previewStrong"
            components={sampleMarks('s', (slot) => STRONG_STYLES[slot])}
          />
        </p>
        <div className="colour-preview-demo" data-tooltip-style={tooltipStyle} data-testid="preview-demo">
          <TooltipSample style={tooltipStyle} />
          {quiet && (
            <p className="colour-preview-note" data-testid="preview-note">
              {t(auto ? 'colorTheme.previewAuto' : 'colorTheme.previewHide')}
            </p>
          )}
          <p>
            <Trans i18nKey="colorTheme.previewSelection" components={{ sel: selection }} />
          </p>
        </div>
      </div>
    </figure>
  );
}
