import { useTranslation } from 'react-i18next';
import { isolate } from '../../../src/rules/bidi.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { ConfirmDialog } from '../account/ConfirmDialog.tsx';
import { RelativeTime } from './RelativeTime.tsx';

/** A token's "Created …" and "Last used …" (or "Never used"), with the client that used it when known. */
export function TokenUse(props: { createdAt: Date; lastUsedAt: Date | null; client?: string | null }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <span>{t('sync.tokenCreated', { date: isolate(formatDateTime(props.createdAt, i18n.language)) })}</span>
      <span>
        {props.lastUsedAt ? (
          <>
            {t('sync.tokenLastUsed')} <RelativeTime date={props.lastUsedAt} />
            {props.client && (
              <>
                {' · '}
                <bdi className="mono token-client">{props.client}</bdi>
              </>
            )}
          </>
        ) : (
          t('sync.tokenNeverUsed')
        )}
      </span>
    </>
  );
}

/** Revoke, behind a confirmation that names the token and says what revoking it stops. */
export function RevokeTokenButton(props: {
  name: string;
  consequence: string;
  pending: boolean;
  onRevoke(): void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      title={t('sync.revokeTitle', { name: props.name })}
      description={props.consequence}
      confirmLabel={t('sync.revoke')}
      danger
      onConfirm={props.onRevoke}
    >
      <button type="button" className="button button-small button-danger" disabled={props.pending}>
        {t('sync.revoke')}
      </button>
    </ConfirmDialog>
  );
}
