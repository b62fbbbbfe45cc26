import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Icon } from '../../components/icons/Icon.tsx';
import { useViewStyle } from '../notes/local-pref.ts';
import { readerPath } from '../reader/reader-links.ts';
import type { QueuedSave, SaveQueue } from './save-queue.ts';
import '../../styles/save-queue.css';

export { SaveQueue } from './save-queue.ts';

/** What an entry says about where its save stands. */
function useStatusText(errorText: (error: unknown) => string) {
  const { t } = useTranslation();
  return (entry: QueuedSave): string => {
    switch (entry.state) {
      case 'waiting':
        return t('clip.queue.waiting');
      case 'saving':
        return t('clip.queue.saving');
      case 'saved':
        return t('clip.queue.saved');
      case 'known':
        return t(entry.retried ? 'clip.savedAgainRetrying' : 'clip.alreadySaved');
      case 'failed':
        return errorText(entry.error);
    }
  };
}

/**
 * The addresses being saved from the form above, newest first, each with its state: waiting or
 * saving, saved (the address opens the note), already saved, or failed with its reason and Retry.
 * Loaded with the first save, so the home route's first load does not carry it. `errorText` is
 * the form's errorMessage: imported here, it split the home route's tRPC chunk (+1 KB gzipped).
 */
export function SaveQueueList({
  queue,
  errorText,
}: {
  queue: SaveQueue;
  errorText: (error: unknown) => string;
}) {
  const { t } = useTranslation();
  const entries = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  const view = useViewStyle();
  const statusText = useStatusText(errorText);
  if (!entries.length) return null;
  return (
    <ul className="save-queue" aria-label={t('clip.queue.label')} data-testid="save-queue">
      {entries.map((entry) => {
        const busy = entry.state === 'waiting' || entry.state === 'saving';
        return (
          <li
            key={entry.id}
            className="save-queue-item"
            data-testid="save-queue-item"
            data-state={entry.state}
            data-url={entry.url}
          >
            {busy ? (
              <span className="clip-spinner" aria-hidden="true" />
            ) : (
              <span className="save-queue-mark" aria-hidden="true" />
            )}
            <span className="save-queue-text">
              {entry.noteId ? (
                <Link href={readerPath(entry.noteId, view)} className="save-queue-url" dir="ltr">
                  {entry.url}
                </Link>
              ) : (
                <span className="save-queue-url" dir="ltr">
                  {entry.url}
                </span>
              )}
              <span className="save-queue-status" role="status" data-testid="save-queue-status">
                {statusText(entry)}
              </span>
            </span>
            {entry.state === 'failed' && (
              <button
                type="button"
                className="button button-small"
                data-testid="save-queue-retry"
                onClick={() => queue.retry(entry.id)}
              >
                {t('common.retry')}
              </button>
            )}
            {entry.state !== 'saving' && (
              <button
                type="button"
                className="icon-button save-queue-dismiss"
                data-testid="save-queue-dismiss"
                aria-label={t('clip.queue.dismiss')}
                title={t('clip.queue.dismiss')}
                onClick={() => queue.dismiss(entry.id)}
              >
                <Icon name="close" size={16} />
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
