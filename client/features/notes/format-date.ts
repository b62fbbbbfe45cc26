const formats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per language and style, made once (a bad language tag falls back to the browser's). */
function formatFor(language: string, style: 'date' | 'dateTime'): Intl.DateTimeFormat {
  const key = `${style}|${language}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      style === 'date' ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' };
    try {
      format = new Intl.DateTimeFormat(language, options);
    } catch {
      format = new Intl.DateTimeFormat(undefined, options);
    }
    formats.set(key, format);
  }
  return format;
}

/** A date (or epoch milliseconds) in the reader's language, e.g. "12 Sept 2025" / "2025年9月12日". */
export function formatDate(date: Date | number, language: string): string {
  return formatFor(language, 'date').format(date);
}

/** A date and time in the reader's language, e.g. "12 Sept 2025, 14:05". */
export function formatDateTime(date: Date | number, language: string): string {
  return formatFor(language, 'dateTime').format(date);
}
