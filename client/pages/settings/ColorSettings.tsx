import { useTranslation } from 'react-i18next';
import { THEME_COLOURS } from '../../../src/constants.ts';
import { Theme } from '../../../src/enums.ts';
import type { Me } from '../../../src/schemas/auth.ts';
import { type Choice, ChoiceCards } from '../../components/ChoiceCards.tsx';
import { ConfirmDialog } from '../../features/account/ConfirmDialog.tsx';
import { useUserSettings } from '../../features/account/use-user-settings.ts';
import { TooltipStyleChoices } from '../../features/highlights/TooltipStyleChoices.tsx';
import { useTooltipStyle } from '../../features/highlights/tooltip-style.ts';
import { ColourPreview } from '../../features/theme/ColourPreview.tsx';
import { ColourSlotFields } from '../../features/theme/ColourSlotFields.tsx';
import { usePaletteEditor } from '../../features/theme/palette-editor.ts';
import { THEME_CYCLE, THEME_LABEL_KEYS } from '../../features/theme/theme-store.ts';
import { useThemeChoice } from '../../features/theme/use-theme-choice.ts';
import { notify } from '../../lib/notify.ts';
import '../../styles/colour-theme.css';

const THEME_HINT_KEYS = {
  [Theme.light]: 'colorTheme.themeLightHint',
  [Theme.dark]: 'colorTheme.themeDarkHint',
  [Theme.system]: 'colorTheme.themeSystemHint',
};

/** A page in the theme's own background, with lines of text: split in two for "follow system". */
function ThemeSwatch({ theme }: { theme: Theme }) {
  return (
    <span className="theme-swatch" data-swatch={theme} aria-hidden="true">
      <span style={{ background: THEME_COLOURS[theme === Theme.dark ? 'dark' : 'light'] }} />
      {theme === Theme.system && <span style={{ background: THEME_COLOURS.dark }} />}
    </span>
  );
}

/** /personSetting/color: theme, the six highlight colours and the text tooltip, with a live preview. */
export function ColorSettings(_props: { me: Me }) {
  const { t } = useTranslation();
  const [theme, chooseTheme] = useThemeChoice();
  const [tooltipStyle, chooseTooltipStyle] = useTooltipStyle();
  const { reset, resetting } = useUserSettings();
  const colours = usePaletteEditor();

  const themeChoices: Choice<Theme>[] = THEME_CYCLE.map((value) => ({
    value,
    label: t(THEME_LABEL_KEYS[value]),
    hint: t(THEME_HINT_KEYS[value]),
    visual: <ThemeSwatch theme={value} />,
  }));

  return (
    <div className="colour-theme">
      <p className="muted colour-theme-intro">{t('colorTheme.autoSave')}</p>

      <section className="settings-section colour-theme-themes" aria-labelledby="theme-title">
        <h2 id="theme-title" className="section-title">
          {t('colorTheme.themeTitle')}
        </h2>
        <ChoiceCards
          name="theme"
          legend={t('colorTheme.themeTitle')}
          choices={themeChoices}
          value={theme}
          onChange={chooseTheme}
          testIdPrefix="theme-option"
        />
      </section>

      <section className="settings-section colour-theme-colours" aria-labelledby="colours-title">
        <h2 id="colours-title" className="section-title">
          {t('colorTheme.coloursTitle')}
        </h2>
        <p className="muted">{t('colorTheme.coloursHint')}</p>
        <ColourSlotFields editor={colours} />
      </section>

      <section className="settings-section colour-theme-tooltip" aria-labelledby="tooltip-title">
        <h2 id="tooltip-title" className="section-title">
          {t('colorTheme.tooltipTitle')}
        </h2>
        <p className="muted">{t('colorTheme.tooltipHint')}</p>
        <TooltipStyleChoices value={tooltipStyle} onChange={chooseTooltipStyle} />
      </section>

      <div className="colour-theme-preview">
        <ColourPreview palette={colours.palette} tooltipStyle={tooltipStyle} />
      </div>

      <div className="colour-theme-reset">
        <ConfirmDialog
          title={t('colorTheme.resetTitle')}
          description={t('colorTheme.resetBody')}
          confirmLabel={t('colorTheme.resetConfirm')}
          onConfirm={() =>
            void reset().then((done) => {
              if (!done) return;
              colours.discardEdits();
              notify.success('toast.saveSuccess');
            })
          }
        >
          <button type="button" className="button" disabled={resetting} data-testid="colour-theme-reset">
            {t('colorTheme.reset')}
          </button>
        </ConfirmDialog>
      </div>
    </div>
  );
}
