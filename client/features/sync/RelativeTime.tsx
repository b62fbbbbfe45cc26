import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format-date.ts';
import { uiLanguageAttributes } from '../../lib/language-attributes.ts';
import { formatWhen } from './format-time.ts';

/**
 * A `<time>` that reads "5 minutes ago" (or a date when older) and shows the exact time on hover,
 * isolated in its language's direction like every date (LocalTime).
 */
export function RelativeTime({ date }: { date: Date }) {
  const { i18n } = useTranslation();
  return (
    <time
      dateTime={date.toISOString()}
      title={formatDateTime(date, i18n.language)}
      {...uiLanguageAttributes(i18n.language)}
    >
      {formatWhen(date, i18n.language)}
    </time>
  );
}
