import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { CopyButton } from '../../components/CopyButton.tsx';
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

/**
 * How a pulling tool connects: install Margin's plugin, give it this server's address, press
 * Connect and allow it in the browser. Tools without a Margin plugin use a token.
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
        <li>{t(`sync.install.${info.app}`)}</li>
        <li>
          {t('sync.stepServer')}
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
