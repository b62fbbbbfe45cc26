import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { EXTENSION_VERSIONS } from '../../../src/constants.ts';
import { ExtensionMarket } from '../../../src/enums.ts';
import { regionConfig } from '../../../src/regions.ts';
import type { SystemInfo } from '../../../src/schemas/system.ts';
import { InlineValue } from '../../components/InlineValue.tsx';
import { currentMarket } from '../../features/tools/environment.ts';
import { StoreLink, StoreList, StoreMark } from '../../features/tools/StoreList.tsx';
import { useSystemInfo } from '../../lib/use-system-info.ts';
import { currentRegion } from '../../region.ts';
import '../../features/tools/tools.css';
import '../../styles/extension-pages.css';

type DownloadBrowser = SystemInfo['extension']['downloads'][number];

/** Where each browser lists its extensions; Firefox loads a temporary add-on from its debugging page. */
const EXTENSIONS_PAGE: Record<DownloadBrowser, string> = {
  chrome: 'chrome://extensions',
  edge: 'edge://extensions',
  firefox: 'about:debugging#/runtime/this-firefox',
};

const CHROMIUM_STEPS = [
  'plugins.steps.unzip',
  'plugins.steps.openPage',
  'plugins.steps.developerMode',
  'plugins.steps.loadUnpacked',
];

/** Chrome and Edge load the unzipped folder; Firefox the zip itself, until it restarts. */
const STEP_KEYS: Record<DownloadBrowser, readonly string[]> = {
  chrome: CHROMIUM_STEPS,
  edge: CHROMIUM_STEPS,
  firefox: ['plugins.steps.openPage', 'plugins.steps.loadTemporary'],
};

const STEP_MARKUP = { code: <code dir="ltr" />, b: <b /> };

/** One package this server built: its download and how to load it unpacked. */
function Download({ browser }: { browser: DownloadBrowser }) {
  const { t } = useTranslation();
  const name = t(`rateUs.browser.${browser}`);
  return (
    <li className="extension-download" data-testid={`download-${browser}`}>
      <div className="extension-download-head">
        <StoreMark market={browser} />
        <h3>{name}</h3>
        <a
          className="button button-small"
          href={`/downloads/extension/${browser}`}
          download
          aria-label={t('plugins.downloadFor', { browser: name })}
          data-testid={`download-link-${browser}`}
        >
          {t('plugins.download')}
        </a>
      </div>
      <ol className="extension-steps">
        {STEP_KEYS[browser].map((key) => (
          <li key={key}>
            <Trans i18nKey={key} values={{ url: EXTENSIONS_PAGE[browser] }} components={STEP_MARKUP} />
          </li>
        ))}
      </ol>
      {browser === 'firefox' && (
        <p className="muted extension-download-note" data-testid="firefox-temporary">
          <Trans i18nKey="plugins.firefoxTemporary" components={STEP_MARKUP} />
        </p>
      )}
    </li>
  );
}

/**
 * /personSetting/plugins: the browser extension from each store (the region's links, with their
 * versions); the packages this server built, to load unpacked; and this server's address, which
 * the extension connects to.
 */
export function PluginsSettings() {
  const { t } = useTranslation();
  const info = useSystemInfo();
  // index.html names the region too, so the links are right before system.info answers.
  const region = info.data?.region ?? currentRegion();
  const links = regionConfig(region).extensionLinks;
  const market = currentMarket();
  const extension = info.data?.extension;
  const origin = window.location.origin;
  return (
    <div className="settings-stack tools-page extension-plugins" data-region={region}>
      <section className="settings-section" aria-labelledby="plugins-stores-title">
        <h2 id="plugins-stores-title" className="section-title">
          {t('plugins.storesTitle')}
        </h2>
        <p className="muted">{t('plugins.storesIntro')}</p>
        <StoreList
          current={market}
          detail={(m) => (
            <>
              <span>
                {t(`rateUs.store.${m}`)} · {t('plugins.version', { version: EXTENSION_VERSIONS[m] })}
              </span>
              {m === ExtensionMarket.safari && (
                <span className="store-note" data-testid="safari-note">
                  {t('plugins.safariNote')}
                </span>
              )}
            </>
          )}
          action={(m, mine) => (
            <StoreLink
              market={m}
              href={links[m]}
              mine={mine}
              label={t('plugins.installFrom', { store: t(`rateUs.store.${m}`) })}
            >
              {t('plugins.install')}
            </StoreLink>
          )}
        />
      </section>

      <section className="settings-section" aria-labelledby="plugins-download-title">
        <h2 id="plugins-download-title" className="section-title">
          {t('plugins.downloadTitle')}
        </h2>
        {!extension ? (
          <p className="muted">{t('app.loading')}</p>
        ) : extension.downloads.length === 0 ? (
          <p className="notice" data-testid="downloads-not-built">
            <Trans i18nKey="plugins.notBuilt" components={STEP_MARKUP} />
          </p>
        ) : (
          <>
            <p className="muted">{t('plugins.downloadIntro', { version: extension.version })}</p>
            <ul className="extension-downloads" data-testid="downloads">
              {extension.downloads.map((browser) => (
                <Download key={browser} browser={browser} />
              ))}
            </ul>
          </>
        )}
      </section>

      <section className="settings-section" aria-labelledby="plugins-connect-title">
        <h2 id="plugins-connect-title" className="section-title">
          {t('plugins.connectTitle')}
        </h2>
        <p className="muted">{t('plugins.connectHint')}</p>
        <div>
          <InlineValue value={origin} testId="server-address" copyLabel={t('plugins.copyAddress')} />
        </div>
        <p className="muted">
          <Trans
            i18nKey="plugins.preferences"
            components={{ ext: <Link href="/personSetting/extsettings" /> }}
          />
        </p>
      </section>
    </div>
  );
}
