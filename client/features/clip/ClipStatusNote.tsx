import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ClipStatus } from '../../../src/enums.ts';
import type { PageSummary } from '../../../src/schemas/notes.ts';
import { useTRPC } from '../../trpc.ts';
import { usePageCache } from '../library/page-cache.ts';
import { clipReasonKey, clipStatusKey, isClipping } from './clip-status.ts';

type ClipState = Pick<PageSummary, 'id' | 'clipStatus' | 'clipError'>;

/** Where a page's clip stands, when it is not done: processing, queued, or failed with Retry. */
export function ClipStatusNote({ page, className }: { page: ClipState; className?: string }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const cache = usePageCache();
  const retry = useMutation(
    trpc.notes.retryClip.mutationOptions({
      onSuccess: (summary) => cache.saved(summary),
    }),
  );
  const messageKey = clipStatusKey(page.clipStatus);
  if (!messageKey) return null;
  const failed = page.clipStatus === ClipStatus.failed;
  return (
    <div
      className={`clip-status${className ? ` ${className}` : ''}`}
      data-testid="clip-status"
      data-status={page.clipStatus}
      role="status"
    >
      {isClipping(page.clipStatus) && <span className="clip-spinner" aria-hidden="true" />}
      <span className="clip-status-text">
        <span className="clip-status-message">{t(messageKey)}</span>
        {failed && page.clipError && (
          <span className="clip-status-reason" data-reason={page.clipError}>
            {t(clipReasonKey(page.clipError), { defaultValue: t('clip.reasons.unknown') })}
          </span>
        )}
      </span>
      {failed && (
        <button
          type="button"
          className="button"
          data-testid="clip-retry"
          disabled={retry.isPending}
          onClick={() => retry.mutate({ id: page.id })}
        >
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
