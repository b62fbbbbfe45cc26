import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Me } from '../../../src/schemas/auth.ts';
import { ShortcutFields } from '../../features/browser-extension/ShortcutFields.tsx';
import { TooltipStyleChoices } from '../../features/highlights/TooltipStyleChoices.tsx';
import { useTooltipStyle } from '../../features/highlights/tooltip-style.ts';
import { ColourSlotFields } from '../../features/theme/ColourSlotFields.tsx';
import { usePaletteEditor } from '../../features/theme/palette-editor.ts';
import '../../styles/extension-pages.css';

/**
 * /personSetting/extsettings: the browser extension's preferences, kept with the account, which
 * the extension reads from the server: the text tooltip, the six colours and its shortcuts.
 */
export function ExtensionSettings(_props: { me: Me }) {
  const { t } = useTranslation();
  const [tooltipStyle, chooseTooltipStyle] = useTooltipStyle();
  const colours = usePaletteEditor();
  return (
    <div className="settings-stack extension-settings">
      <div className="extension-intro">
        <p>{t('extSettings.intro')}</p>
        <p className="muted">
          <Trans i18nKey="extSettings.shared" components={{ color: <Link href="/personSetting/color" /> }} />
        </p>
        <p className="muted" data-testid="extsettings-install">
          <Trans
            i18nKey="extSettings.install"
            components={{ plugins: <Link href="/personSetting/plugins" /> }}
          />
        </p>
      </div>

      <section className="settings-section" aria-labelledby="ext-tooltip-title">
        <h2 id="ext-tooltip-title" className="section-title">
          {t('colorTheme.tooltipTitle')}
        </h2>
        <p className="muted">{t('extSettings.tooltipHint')}</p>
        <TooltipStyleChoices value={tooltipStyle} onChange={chooseTooltipStyle} />
      </section>

      <section className="settings-section" aria-labelledby="ext-colours-title">
        <h2 id="ext-colours-title" className="section-title">
          {t('colorTheme.coloursTitle')}
        </h2>
        <p className="muted">{t('extSettings.coloursHint')}</p>
        <ColourSlotFields editor={colours} />
      </section>

      <section className="settings-section" aria-labelledby="ext-shortcuts-title">
        <h2 id="ext-shortcuts-title" className="section-title">
          {t('extSettings.shortcutsTitle')}
        </h2>
        <ShortcutFields />
      </section>
    </div>
  );
}
