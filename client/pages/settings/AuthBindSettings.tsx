import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import type { Me } from '../../../src/schemas/auth.ts';
import { ConfirmDialog } from '../../features/account/ConfirmDialog.tsx';
import { useMeUpdate } from '../../features/account/use-me-update.ts';
import { oidcFailed, oidcStartPath, useOidcProvider } from '../../features/auth/OtherLoginMethods.tsx';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';

const PROVIDERS = ['google'] as const;

function Status({ bound }: { bound: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={bound ? 'status status-on' : 'status'}>
      {bound ? t('account.bound') : t('account.unbound')}
    </span>
  );
}

/** /personSetting/authbind: email and third-party sign-ins, each bound or unbound. */
export function AuthBindSettings({ me }: { me: Me }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const update = useMeUpdate();
  const oidcName = useOidcProvider();
  const failed = oidcFailed(useSearch());
  const { data: bindings } = useQuery(trpc.account.bindings.queryOptions());
  const unbind = useMutation(
    trpc.account.unbindProvider.mutationOptions({
      onSuccess: () => {
        void update.refetch();
        notify.success('account.unbindDone');
      },
    }),
  );
  if (!bindings) return <p className="muted">{t('app.loading')}</p>;
  return (
    <div className="settings-stack">
      {failed && (
        <p className="notice notice-warning" role="alert">
          {t('errors.oidcFailed', { provider: oidcName ?? 'Google' })}
        </p>
      )}
      <ul className="binding-list" data-testid="bindings">
        <li className="binding">
          <div className="binding-name">
            <strong>{t('account.email')}</strong>
            {me.email && (
              <span className="muted">
                <bdi>{me.email}</bdi>
              </span>
            )}
          </div>
          <Status bound={Boolean(me.email)} />
          <Link href="/personSetting/email" className="button">
            {t('settings.email')}
          </Link>
        </li>
        {PROVIDERS.map((provider) => {
          const binding = bindings.providers.find((b) => b.provider === provider);
          const name = oidcName ?? 'Google';
          return (
            <li key={provider} className="binding" data-provider={provider}>
              <div className="binding-name">
                <strong>{name}</strong>
                {binding?.email && (
                  <span className="muted">
                    <bdi>{binding.email}</bdi>
                  </span>
                )}
              </div>
              <Status bound={Boolean(binding)} />
              {binding ? (
                <ConfirmDialog
                  title={t('account.unbindConfirm')}
                  confirmLabel={t('account.unbind')}
                  danger
                  onConfirm={() => unbind.mutate({ provider })}
                >
                  <button type="button" className="button button-danger" disabled={unbind.isPending}>
                    {t('account.unbind')}
                  </button>
                </ConfirmDialog>
              ) : oidcName ? (
                <a className="button" href={oidcStartPath('/personSetting/authbind', 'bind')}>
                  {t('account.connect')}
                </a>
              ) : (
                <span className="form-note">{t('errors.loginTypeUnavailable')}</span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
