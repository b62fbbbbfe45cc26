import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../notes/format-date.ts';
import { formatWhen } from './format-time.ts';

/** A `<time>` that reads "5 minutes ago" (or a date when older) and shows the exact time on hover. */
export function RelativeTime({ date }: { date: Date }) {
  const { i18n } = useTranslation();
  return (
    <time dateTime={date.toISOString()} title={formatDateTime(date, i18n.language)}>
      {formatWhen(date, i18n.language)}
    </time>
  );
}
