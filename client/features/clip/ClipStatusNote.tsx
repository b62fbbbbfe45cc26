import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ClipStatus } from '../../../src/enums.ts';
import type { NoteSummary } from '../../../src/schemas/notes.ts';
import { useTRPC } from '../../trpc.ts';
import { useNoteCache } from '../notes/note-cache.ts';
import { clipReasonKey, clipStatusKey, isClipping } from './clip-status.ts';

type ClipState = Pick<NoteSummary, 'id' | 'clipStatus' | 'clipError'>;

/** Where a note's clip stands, when it is not done: processing, queued, or failed with Retry. */
export function ClipStatusNote({ note, className }: { note: ClipState; className?: string }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const cache = useNoteCache();
  const retry = useMutation(
    trpc.notes.retryClip.mutationOptions({
      onSuccess: (summary) => cache.saved(summary),
    }),
  );
  const messageKey = clipStatusKey(note.clipStatus);
  if (!messageKey) return null;
  const failed = note.clipStatus === ClipStatus.failed;
  return (
    <div
      className={`clip-status${className ? ` ${className}` : ''}`}
      data-testid="clip-status"
      data-status={note.clipStatus}
      role="status"
    >
      {isClipping(note.clipStatus) && <span className="clip-spinner" aria-hidden="true" />}
      <span className="clip-status-text">
        <span className="clip-status-message">{t(messageKey)}</span>
        {failed && note.clipError && (
          <span className="clip-status-reason" data-reason={note.clipError}>
            {t(clipReasonKey(note.clipError), { defaultValue: t('clip.reasons.unknown') })}
          </span>
        )}
      </span>
      {failed && (
        <button
          type="button"
          className="button"
          data-testid="clip-retry"
          disabled={retry.isPending}
          onClick={() => retry.mutate({ id: note.id })}
        >
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
