import { useTranslation } from 'react-i18next';

/** A hairline along the reader's toolbar, filled as far as the article has been read; none at the top. */
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
      data-started={fraction > 0 || undefined}
    >
      <div className="reader-progress-fill" style={{ inlineSize: `${fraction * 100}%` }} />
    </div>
  );
}
