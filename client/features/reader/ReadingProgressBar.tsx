import { useTranslation } from 'react-i18next';

/** A hairline along the reader's toolbar, filled as far as the article has been read. */
export function ReadingProgressBar({ fraction }: { fraction: number }) {
  const { t } = useTranslation();
  const percent = Math.round(fraction * 100);
  return (
    <div
      className="reader-progress"
      role="progressbar"
      aria-label={t('reader.progressLabel')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      data-testid="reading-progress"
    >
      <div className="reader-progress-fill" style={{ inlineSize: `${fraction * 100}%` }} />
    </div>
  );
}
