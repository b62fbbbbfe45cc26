import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Loaded } from '../../components/QueryState.tsx';
import { CreateTokenForm } from '../../features/sync/CreateTokenForm.tsx';
import { TokenRow } from '../../features/sync/TokenRow.tsx';
import { useTRPC } from '../../trpc.ts';
import '../../styles/sync.css';

/** /personSetting/synctoken (and gentokn): the sync tokens plugins and scripts use. */
export function SyncTokenSettings() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const tokens = useQuery(trpc.sync.tokens.queryOptions());
  return (
    <div className="settings-stack">
      <p className="muted">{t('sync.tokensIntro')}</p>
      <section className="settings-section" aria-labelledby="new-token-title">
        <h2 id="new-token-title" className="section-title">
          {t('sync.newToken')}
        </h2>
        <CreateTokenForm />
      </section>
      <section className="settings-section" aria-labelledby="tokens-title">
        <h2 id="tokens-title" className="section-title">
          {t('sync.tokensTitle')}
        </h2>
        <Loaded
          query={tokens}
          empty={
            <div className="empty-state empty-state-small" data-testid="tokens-empty">
              <h3>{t('sync.tokensEmptyTitle')}</h3>
              <p>{t('sync.tokensEmptyBody')}</p>
            </div>
          }
        >
          {(list) => (
            <ul className="token-list" data-testid="tokens">
              {list.map((token) => (
                <TokenRow key={token.id} token={token} />
              ))}
            </ul>
          )}
        </Loaded>
      </section>
    </div>
  );
}
