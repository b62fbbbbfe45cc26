import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { isVersionTooLow } from '../../../src/rules/extension.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { useSystemInfo } from '../../lib/use-system-info.ts';
import '../../styles/extension-banner.css';

const DISMISSED_KEY = 'margin.extensionUpdateDismissed';

function dismissedPair(): string | null {
  try {
    return sessionStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

/**
 * "Plugin version is too low": the extension that marked the page is older than
 * the server accepts. Dismissed, it stays away for this tab until either version changes.
 */
export function ExtensionUpdateBanner({ version }: { version: string }) {
  const { t } = useTranslation();
  const minimum = useSystemInfo().data?.extension.minVersion;
  const pair = `${version} -> ${minimum}`;
  const [dismissed, setDismissed] = useState(dismissedPair);
  if (!minimum || !isVersionTooLow(version, minimum) || dismissed === pair) return null;
  const dismiss = () => {
    setDismissed(pair);
    try {
      sessionStorage.setItem(DISMISSED_KEY, pair);
    } catch {
      // Private mode: dismissed until the next load.
    }
  };
  return (
    <div className="extension-banner" role="status" data-testid="extension-update-banner">
      <p className="extension-banner-message">
        {t('errors.pluginTooLow', { current: version, required: minimum })}
      </p>
      <Link href="/personSetting/plugins" className="button button-small button-primary">
        {t('banner.update')}
      </Link>
      <button
        type="button"
        className="icon-button extension-banner-dismiss"
        aria-label={t('banner.dismiss')}
        data-testid="extension-update-dismiss"
        onClick={dismiss}
      >
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}
