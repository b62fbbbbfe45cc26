import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_ENDPOINTS_PER_USER_MAX } from '../../../src/schemas/webhooks.ts';
import { Loaded } from '../../components/QueryState.tsx';
import { useTRPC } from '../../trpc.ts';
import { NewSecret } from './NewSecret.tsx';
import { SignatureHelp } from './SignatureHelp.tsx';
import { WebhookForm } from './WebhookForm.tsx';
import { WebhookRow } from './WebhookRow.tsx';
import '../../styles/sync.css';
import '../../styles/webhooks.css';

/** The account's endpoints, or why they cannot be shown. */
function WebhookList() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions());
  return (
    <Loaded
      query={endpoints}
      empty={
        <div className="empty-state empty-state-small" data-testid="webhooks-empty">
          <h3>{t('webhooks.emptyTitle')}</h3>
          <p>{t('webhooks.emptyBody')}</p>
        </div>
      }
    >
      {(list) => (
        <ul className="webhook-list" data-testid="webhooks">
          {list.map((endpoint) => (
            <WebhookRow key={endpoint.id} endpoint={endpoint} />
          ))}
        </ul>
      )}
    </Loaded>
  );
}

/**
 * The webhook endpoints section of the "API and daily note" settings page: add an endpoint (its
 * signing secret shown once), the endpoints with their status, actions and delivery log, and how
 * a receiver checks a delivery's signature.
 */
export function WebhookSettings() {
  const { t } = useTranslation();
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <section
      className="settings-section webhooks"
      aria-labelledby="webhooks-title"
      data-testid="webhook-settings"
    >
      <h2 id="webhooks-title" className="section-title">
        {t('webhooks.title')}
      </h2>
      <p className="muted">{t('webhooks.intro', { max: WEBHOOK_ENDPOINTS_PER_USER_MAX })}</p>
      <div className="webhook-new">
        <h3 className="eyebrow">{t('webhooks.newEndpoint')}</h3>
        {secret ? (
          <NewSecret secret={secret} onDone={() => setSecret(null)} />
        ) : (
          <WebhookForm onCreated={setSecret} />
        )}
      </div>
      <WebhookList />
      <SignatureHelp />
    </section>
  );
}
