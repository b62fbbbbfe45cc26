import { useTranslation } from 'react-i18next';
import { TextTooltipStyle } from '../../../src/enums.ts';
import { type Choice, ChoiceCards } from '../../components/ChoiceCards.tsx';
import { TOOLTIP_STYLE_LABEL_KEYS } from './tooltip-style.ts';

const TOOLTIP_HINT_KEYS: Record<TextTooltipStyle, string> = {
  [TextTooltipStyle.moreTools]: 'colorTheme.tooltipStyleHint.moreTools',
  [TextTooltipStyle.hide]: 'colorTheme.tooltipStyleHint.hide',
  [TextTooltipStyle.defaultColour]: 'colorTheme.tooltipStyleHint.defaultColour',
  [TextTooltipStyle.autoHighlight]: 'colorTheme.tooltipStyleHint.autoHighlight',
};

/** The text tooltip's styles (spec: more tools 1, hide 2, default colour 3, auto highlight 4) as cards. */
export function TooltipStyleChoices({
  value,
  onChange,
}: {
  value: TextTooltipStyle;
  onChange: (style: TextTooltipStyle) => void;
}) {
  const { t } = useTranslation();
  const choices: Choice<TextTooltipStyle>[] = Object.values(TextTooltipStyle).map((style) => ({
    value: style,
    label: t(TOOLTIP_STYLE_LABEL_KEYS[style]),
    hint: t(TOOLTIP_HINT_KEYS[style]),
  }));
  return (
    <ChoiceCards
      name="tooltip-style"
      legend={t('colorTheme.tooltipTitle')}
      choices={choices}
      value={value}
      onChange={onChange}
      testIdPrefix="tooltip-style-choice"
    />
  );
}
