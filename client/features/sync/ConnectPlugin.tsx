import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { CopyButton } from '../../components/CopyButton.tsx';
import { useSystemInfo } from '../../lib/use-system-info.ts';
import type { AppInfo } from './apps.ts';

/** The address the plugin asks for: the one this page is open at. */
function ServerAddress() {
  const origin = window.location.origin;
  return (
    <div className="server-address">
      <code className="mono" dir="ltr" data-testid="server-address">
        {origin}
      </code>
      <CopyButton text={origin} />
    </div>
  );
}

const tokenLink = <Link href="/personSetting/synctoken" />;

/** The plugin's package as this server built it, with the version its manifest carries, and how to install it. */
function PluginDownload({ info }: { info: AppInfo }) {
  const { t } = useTranslation();
  const system = useSystemInfo();
  if (!system.data) return <p className="muted">{t('app.loading')}</p>;
  const built = system.data.plugins.find((plugin) => plugin.tool === info.app);
  if (!built) {
    return (
      <p className="notice" data-testid="plugin-not-built">
        <Trans i18nKey="sync.pluginNotBuilt" components={{ code: <code dir="ltr" /> }} />
      </p>
    );
  }
  return (
    <>
      <a
        className="button button-small"
        href={`/downloads/plugins/${info.app}`}
        download
        data-testid="plugin-download"
        data-version={built.version}
      >
        {t('sync.pluginDownload', { version: built.version })}
      </a>
      <p data-testid="plugin-install">{t(`sync.install.${info.app}`)}</p>
    </>
  );
}

/**
 * How a pulling tool connects: download Margin's plugin from this server and install it, give it
 * this server's address (already in Obsidian's download), press Connect and allow it in the
 * browser. Tools without a Margin plugin use a token.
 */
export function ConnectPlugin({ info }: { info: AppInfo }) {
  const { t } = useTranslation();
  const app = t(`sync.app.${info.app}`);
  if (!info.plugin) {
    return (
      <p className="form-note" data-testid="connect-token-hint">
        <Trans i18nKey="sync.tokenOnlyHint" values={{ app }} components={{ link: tokenLink }} />
      </p>
    );
  }
  return (
    <div className="connect-plugin" data-testid="connect-plugin">
      <ol className="steps">
        <li>
          <PluginDownload info={info} />
        </li>
        <li>
          {info.plugin.serverPrefilled ? (
            t('sync.stepServerPrefilled')
          ) : (
            <>
              <span data-testid="server-not-prefilled">{t('sync.serverNotPrefilled', { app })}</span>{' '}
              {t('sync.stepServer')}
            </>
          )}
          <ServerAddress />
        </li>
        <li>{t('sync.stepConnect', { app })}</li>
      </ol>
      <p className="form-note">
        <Trans i18nKey="sync.tokenHint" components={{ link: tokenLink }} />
      </p>
    </div>
  );
}
