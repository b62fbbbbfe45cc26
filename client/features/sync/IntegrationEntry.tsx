import { useTranslation } from 'react-i18next';
import type { IntegrationView } from '../../../src/schemas/sync.ts';
import { ConfirmDialog } from '../account/ConfirmDialog.tsx';
import { AppMark } from './AppMark.tsx';
import { useUnbind } from './use-integration.ts';

/** An integration's entry: the app's name, bound or unbound, a line about it, and its action. */
export function IntegrationEntry({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation();
  const { app, bound } = integration;
  const unbind = useUnbind(app);
  const name = t(`sync.app.${app}`);
  return (
    <div className="integration-entry" data-testid="integration-entry" data-bound={bound}>
      <AppMark app={app} />
      <div className="integration-entry-text">
        <div className="integration-entry-name">
          <h2 className="section-title">{name}</h2>
          <span className={bound ? 'status status-on' : 'status'} data-testid="integration-status">
            {bound ? t('account.bound') : t('account.unbound')}
          </span>
        </div>
        <p className="muted">{t(`sync.description.${app}`)}</p>
      </div>
      {bound ? (
        <ConfirmDialog
          title={t('account.unbindConfirm')}
          description={t('sync.unbindBody', { app: name })}
          confirmLabel={t('account.unbind')}
          danger
          onConfirm={() => unbind.mutate({ app })}
        >
          <button type="button" className="button button-danger" disabled={unbind.isPending}>
            {t('account.unbind')}
          </button>
        </ConfirmDialog>
      ) : (
        <a className="button" href="#connect">
          {t('sync.connect')}
        </a>
      )}
    </div>
  );
}
