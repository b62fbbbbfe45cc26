// The one place dates are written for people: Intl in the reader's language, one formatter per
// language and style, made once (a bad language tag falls back to the browser's). Shown in an
// element, a date is <LocalTime> (its own direction, isolated from the text around it); inside a
// translated sentence it goes in through isolate() (src/rules/bidi.ts).

const STYLES = {
  /** "12 Sept 2025" / "2025年9月12日" */
  date: { dateStyle: 'medium' },
  /** "12 Sept 2025, 14:05" */
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** "12 September 2025" */
  longDate: { dateStyle: 'long' },
  /** A calendar day, the same in every zone: "Friday, 12 September 2025". */
  fullDay: { dateStyle: 'full', timeZone: 'UTC' },
  /** A calendar day, shorter: "12 Sept 2025". */
  mediumDay: { dateStyle: 'medium', timeZone: 'UTC' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof STYLES;

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(language: string, style: DateStyle): Intl.DateTimeFormat {
  const key = `${style}|${language}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(language, STYLES[style]);
    } catch {
      format = new Intl.DateTimeFormat(undefined, STYLES[style]);
    }
    formats.set(key, format);
  }
  return format;
}

/** A date (or epoch milliseconds) in the reader's language, in one of the styles above. */
export function formatDate(date: Date | number, language: string, style: DateStyle = 'date'): string {
  return formatFor(language, style).format(date);
}

/** A date and time in the reader's language, e.g. "12 Sept 2025, 14:05". */
export function formatDateTime(date: Date | number, language: string): string {
  return formatDate(date, language, 'dateTime');
}

/** A calendar day 'YYYY-MM-DD' in words for the current language, e.g. "Monday, 2 March 2026". */
export function formatDay(day: string, language: string, style: 'full' | 'medium' = 'full'): string {
  const instant = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(instant.getTime())) return day;
  return formatDate(instant, language, style === 'full' ? 'fullDay' : 'mediumDay');
}
