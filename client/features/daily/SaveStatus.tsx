import { useTranslation } from 'react-i18next';
import type { SaveStatus as Status } from './daily-saver.ts';

/** "Saved" / "Saving…" / "Offline" for the editor, announced politely to screen readers. */
export function SaveStatus({ status }: { status: Status }) {
  const { t } = useTranslation();
  return (
    <span
      className="daily-status"
      role="status"
      aria-live="polite"
      data-testid="daily-save-status"
      data-status={status}
    >
      <span className="daily-status-dot" aria-hidden="true" />
      {t(`daily.status.${status}`)}
    </span>
  );
}
