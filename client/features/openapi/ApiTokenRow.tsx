import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isolate } from '../../../src/rules/bidi.ts';
import type { ApiTokenView } from '../../../src/schemas/api-tokens.ts';
import { formatDate, formatDateTime } from '../../lib/format-date.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import { RevokeTokenButton, TokenUse } from '../sync/token-parts.tsx';

/** When the token expires (or did), in the reader's language; the exact time on hover. */
function Expiry({ token }: { token: ApiTokenView }) {
  const { t, i18n } = useTranslation();
  if (!token.expiresAt) return <span>{t('openapi.neverExpires')}</span>;
  // Isolated: a date's digits and separators keep their order inside a right-to-left sentence.
  const date = isolate(formatDate(token.expiresAt, i18n.language));
  return (
    <time
      dateTime={token.expiresAt.toISOString()}
      title={formatDateTime(token.expiresAt, i18n.language)}
      className={token.expired ? 'token-expired' : undefined}
      data-testid="api-token-expiry"
    >
      {t(token.expired ? 'openapi.expiredOn' : 'openapi.expiresOn', { date })}
    </time>
  );
}

/** One token: name, its first characters, scopes, dates, and Revoke behind a confirmation. */
export function ApiTokenRow({ token }: { token: ApiTokenView }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.openapi.revokeToken.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.openapi.tokens.queryKey() });
        notify.success('sync.tokenRevoked');
      },
      onError: (error) => notify.error(error),
    }),
  );
  return (
    <li className="token api-token" data-testid="api-token" data-token-id={token.id}>
      <div className="token-main">
        <p className="api-token-title">
          <strong className="token-name" dir="auto">
            {token.name}
          </strong>
          <code className="mono api-token-hint" dir="ltr" data-testid="api-token-hint">
            {token.hint}…
          </code>
        </p>
        <ul className="api-token-scopes" aria-label={t('openapi.scopesLabel')}>
          {token.scopes.map((scope) => (
            <li key={scope} className="badge">
              {t(`openapi.scope.${scope}`)}
            </li>
          ))}
        </ul>
        <p className="token-facts">
          <TokenUse createdAt={token.createdAt} lastUsedAt={token.lastUsedAt} />
          <Expiry token={token} />
        </p>
      </div>
      <div className="token-actions">
        <RevokeTokenButton
          name={token.name}
          consequence={t('openapi.revokeBody')}
          pending={revoke.isPending}
          onRevoke={() => revoke.mutate({ id: token.id })}
        />
      </div>
    </li>
  );
}
