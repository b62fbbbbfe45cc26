import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Loaded } from '../../components/QueryState.tsx';
import { ProNote } from '../../features/membership/ProNote.tsx';
import { ApiExamples } from '../../features/openapi/ApiExamples.tsx';
import { ApiTokenRow } from '../../features/openapi/ApiTokenRow.tsx';
import { CreateApiTokenForm } from '../../features/openapi/CreateApiTokenForm.tsx';
import { WebhookSettings } from '../../features/webhooks/WebhookSettings.tsx';
import { useTRPC } from '../../trpc.ts';
import '../../styles/sync.css';
import '../../styles/openapi.css';

/** The account's API tokens: made here, listed with their last use, revoked. */
function ApiTokenList() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const tokens = useQuery(trpc.openapi.tokens.queryOptions());
  return (
    <Loaded
      query={tokens}
      empty={
        <div className="empty-state empty-state-small" data-testid="api-tokens-empty">
          <h3>{t('openapi.tokensEmptyTitle')}</h3>
          <p>{t('openapi.tokensEmptyBody')}</p>
        </div>
      }
    >
      {(list) => (
        <ul className="token-list" data-testid="api-tokens">
          {list.map((token) => (
            <ApiTokenRow key={token.id} token={token} />
          ))}
        </ul>
      )}
    </Loaded>
  );
}

/**
 * /personSetting/openapi, "API and daily note": tokens for the Open API, webhook endpoints, and
 * examples (curl, JavaScript, an iOS shortcut for today's daily note) with this server's address.
 */
export function OpenApiSettings() {
  const { t } = useTranslation();
  return (
    <div className="settings-stack openapi-page">
      <ProNote tipKey="membership.tipOpenApi" />
      <p className="muted">{t('openapi.intro')}</p>
      <section className="settings-section" aria-labelledby="new-api-token-title">
        <h2 id="new-api-token-title" className="section-title">
          {t('openapi.newToken')}
        </h2>
        <CreateApiTokenForm />
      </section>
      <section className="settings-section" aria-labelledby="api-tokens-title">
        <h2 id="api-tokens-title" className="section-title">
          {t('openapi.tokensTitle')}
        </h2>
        <ApiTokenList />
      </section>
      <WebhookSettings />
      <section className="settings-section" aria-labelledby="api-examples-title" data-testid="api-examples">
        <h2 id="api-examples-title" className="section-title">
          {t('openapi.examplesTitle')}
        </h2>
        <ApiExamples />
      </section>
    </div>
  );
}
