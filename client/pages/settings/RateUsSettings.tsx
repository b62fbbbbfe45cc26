import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ExtensionMarket } from '../../../src/enums.ts';
import { regionConfig } from '../../../src/regions.ts';
import { currentMarket } from '../../features/tools/environment.ts';
import { StoreLink, StoreList } from '../../features/tools/StoreList.tsx';
import { useSystemInfo } from '../../lib/use-system-info.ts';
import { currentRegion } from '../../region.ts';
import '../../features/tools/tools.css';

/**
 * /personSetting/rateus: the browser extension's listing in each store, as the deployment's region
 * links them (system.info), the user's own browser marked; and the way to the feedback form.
 * Safari's extension is not built from this project, so it has no listing to rate.
 */
export function RateUsSettings() {
  const { t } = useTranslation();
  const info = useSystemInfo();
  // index.html names the region too, so the links are right before system.info answers.
  const region = info.data?.region ?? currentRegion();
  const links = regionConfig(region).extensionLinks;
  const market = currentMarket();
  return (
    <div className="settings-stack tools-page rate-us" data-region={region}>
      <section className="settings-section" aria-labelledby="rateus-stores-title">
        <h2 id="rateus-stores-title" className="section-title">
          {t('rateUs.storesTitle')}
        </h2>
        <p className="muted">{t('rateUs.intro')}</p>
        <StoreList
          current={market}
          detail={(m) => (m === ExtensionMarket.safari ? t('rateUs.notAvailable') : t(`rateUs.store.${m}`))}
          action={(m, mine) =>
            m === ExtensionMarket.safari ? null : (
              <StoreLink
                market={m}
                href={links[m]}
                mine={mine}
                label={t('rateUs.rateOn', { store: t(`rateUs.store.${m}`) })}
              >
                {t('rateUs.rate')}
              </StoreLink>
            )
          }
        />
      </section>
      <section className="settings-section" aria-labelledby="rateus-tell-title">
        <h2 id="rateus-tell-title" className="section-title">
          {t('rateUs.tellUsTitle')}
        </h2>
        <p data-testid="rateus-tell-us">
          <Trans i18nKey="rateUs.tellUs" components={{ feedback: <Link href="/personSetting/feedback" /> }} />
        </p>
      </section>
    </div>
  );
}
