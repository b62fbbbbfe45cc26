import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { THEME_COLOURS } from '../../../src/constants.ts';
import { type ColourSlot, TextTooltipStyle, Theme } from '../../../src/enums.ts';
import type { Me } from '../../../src/schemas/auth.ts';
import type { UpdateUserSettingsInput } from '../../../src/schemas/user-settings.ts';
import { type Choice, ChoiceCards } from '../../components/ChoiceCards.tsx';
import { ConfirmDialog } from '../../features/account/ConfirmDialog.tsx';
import { useUserSettings } from '../../features/account/use-user-settings.ts';
import { COLOUR_SLOTS } from '../../features/highlights/highlight-look.ts';
import { DEFAULT_PALETTE, useHighlightPalette } from '../../features/highlights/highlight-palette.ts';
import { TOOLTIP_STYLE_LABEL_KEYS, useTooltipStyle } from '../../features/highlights/tooltip-style.ts';
import { ColourPreview } from '../../features/theme/ColourPreview.tsx';
import { ColourSlotField } from '../../features/theme/ColourSlotField.tsx';
import { THEME_CYCLE, THEME_LABEL_KEYS } from '../../features/theme/theme-store.ts';
import { useThemeChoice } from '../../features/theme/use-theme-choice.ts';
import { notify } from '../../lib/notify.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import '../../styles/colour-theme.css';

/** A colour being dragged in the picker is saved once it rests this long. */
const SAVE_AFTER_MS = 400;

type Drafts = Partial<Record<ColourSlot, string>>;

const THEME_HINT_KEYS = {
  [Theme.light]: 'colorTheme.themeLightHint',
  [Theme.dark]: 'colorTheme.themeDarkHint',
  [Theme.system]: 'colorTheme.themeSystemHint',
};
const TOOLTIP_HINT_KEYS: Record<TextTooltipStyle, string> = {
  [TextTooltipStyle.moreTools]: 'colorTheme.tooltipStyleHint.moreTools',
  [TextTooltipStyle.hide]: 'colorTheme.tooltipStyleHint.hide',
  [TextTooltipStyle.defaultColour]: 'colorTheme.tooltipStyleHint.defaultColour',
  [TextTooltipStyle.autoHighlight]: 'colorTheme.tooltipStyleHint.autoHighlight',
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

/** The colour patch of each slot, as a stored change: the default colour is stored as "none". */
function patchOf(drafts: Drafts): UpdateUserSettingsInput {
  return Object.fromEntries(
    Object.entries(drafts).map(([slot, hex]) => [
      `c${slot}`,
      hex === DEFAULT_PALETTE[Number(slot) as ColourSlot] ? null : hex,
    ]),
  );
}

/**
 * Colours being edited: shown at once, saved when they rest. Whatever is still waiting when the
 * page closes is saved then.
 */
function useColourDrafts(save: (patch: UpdateUserSettingsInput) => void) {
  const [drafts, setDrafts] = useState<Drafts>({});
  const resting = useDebounced(drafts, SAVE_AFTER_MS);
  useEffect(() => {
    if (Object.keys(resting).length === 0) return;
    save(patchOf(resting));
    setDrafts((current) => {
      const next = { ...current };
      for (const slot of COLOUR_SLOTS) if (next[slot] === resting[slot]) delete next[slot];
      return next;
    });
  }, [resting, save]);
  const latest = useRef({ drafts, save });
  latest.current = { drafts, save };
  useEffect(
    () => () => {
      const { drafts: waiting, save: saveNow } = latest.current;
      if (Object.keys(waiting).length > 0) saveNow(patchOf(waiting));
    },
    [],
  );
  return {
    drafts,
    edit: (slot: ColourSlot, hex: string) => setDrafts((current) => ({ ...current, [slot]: hex })),
    drop: (slot?: ColourSlot) =>
      setDrafts((current) => {
        if (slot === undefined) return {};
        const { [slot]: _dropped, ...rest } = current;
        return rest;
      }),
  };
}

/** /personSetting/color: theme, the six highlight colours and the text tooltip, with a live preview. */
export function ColorSettings(_props: { me: Me }) {
  const { t } = useTranslation();
  const [theme, chooseTheme] = useThemeChoice();
  const [tooltipStyle, chooseTooltipStyle] = useTooltipStyle();
  const { update, reset, resetting } = useUserSettings();
  const saved = useHighlightPalette();
  const { drafts, edit, drop } = useColourDrafts(update);
  const palette = { ...saved, ...drafts };

  const themeChoices: Choice<Theme>[] = THEME_CYCLE.map((value) => ({
    value,
    label: t(THEME_LABEL_KEYS[value]),
    hint: t(THEME_HINT_KEYS[value]),
    visual: <ThemeSwatch theme={value} />,
  }));
  const tooltipChoices: Choice<TextTooltipStyle>[] = Object.values(TextTooltipStyle).map((value) => ({
    value,
    label: t(TOOLTIP_STYLE_LABEL_KEYS[value]),
    hint: t(TOOLTIP_HINT_KEYS[value]),
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
        <ul className="colour-slots">
          {COLOUR_SLOTS.map((slot) => (
            <ColourSlotField
              key={slot}
              slot={slot}
              value={palette[slot]}
              isDefault={palette[slot] === DEFAULT_PALETTE[slot]}
              onChange={(hex) => edit(slot, hex)}
              onDefault={() => {
                drop(slot);
                update({ [`c${slot}`]: null });
              }}
            />
          ))}
        </ul>
      </section>

      <section className="settings-section colour-theme-tooltip" aria-labelledby="tooltip-title">
        <h2 id="tooltip-title" className="section-title">
          {t('colorTheme.tooltipTitle')}
        </h2>
        <p className="muted">{t('colorTheme.tooltipHint')}</p>
        <ChoiceCards
          name="tooltip-style"
          legend={t('colorTheme.tooltipTitle')}
          choices={tooltipChoices}
          value={tooltipStyle}
          onChange={chooseTooltipStyle}
          testIdPrefix="tooltip-style-choice"
        />
      </section>

      <div className="colour-theme-preview">
        <ColourPreview palette={palette} tooltipStyle={tooltipStyle} />
      </div>

      <div className="colour-theme-reset">
        <ConfirmDialog
          title={t('colorTheme.resetTitle')}
          description={t('colorTheme.resetBody')}
          confirmLabel={t('colorTheme.resetConfirm')}
          onConfirm={() =>
            void reset().then((done) => {
              if (!done) return;
              drop();
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
