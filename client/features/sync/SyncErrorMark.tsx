import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { appOfSettingsPage } from './apps.ts';
import { useFailedPushApps } from './use-integration.ts';

/** The settings navigation's links to the push tools whose last run failed, each with an error mark. */
export function useSyncErrorMarks(signedIn: boolean): (page: string) => ReactNode {
  const { t } = useTranslation();
  const failed = useFailedPushApps(signedIn);
  return (page) => {
    const app = appOfSettingsPage(page);
    if (!app || !failed.has(app)) return null;
    return (
      <span
        className="nav-error-mark"
        data-testid="sync-error-mark"
        role="img"
        aria-label={t('settings.pushFailedMark')}
        title={t('settings.pushFailedMark')}
      >
        !
      </span>
    );
  };
}
