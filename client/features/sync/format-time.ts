import { formatDateTime } from '../../lib/format-date.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Within a week a time reads as relative ("5 minutes ago"); older ones as a date and time. */
const RELATIVE_UNTIL_MS = 7 * DAY;

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

function relative(diffMs: number, language: string): string {
  let format = relativeFormats.get(language);
  if (!format) {
    try {
      format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
    } catch {
      format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
    }
    relativeFormats.set(language, format);
  }
  const abs = Math.abs(diffMs);
  if (abs < MINUTE) return format.format(0, 'second');
  if (abs < HOUR) return format.format(Math.round(diffMs / MINUTE), 'minute');
  if (abs < DAY) return format.format(Math.round(diffMs / HOUR), 'hour');
  return format.format(Math.round(diffMs / DAY), 'day');
}

/** When something happened, in the reader's language: relative when recent, else absolute. */
export function formatWhen(date: Date, language: string, now = Date.now()): string {
  const diff = date.getTime() - now;
  return Math.abs(diff) < RELATIVE_UNTIL_MS ? relative(diff, language) : formatDateTime(date, language);
}
