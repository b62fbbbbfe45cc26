const formats = new Map<string, Intl.DateTimeFormat>();

/** A date (or epoch milliseconds) in the reader's language, e.g. "12 Sept 2025" / "2025年9月12日". */
export function formatDate(date: Date | number, language: string): string {
  let format = formats.get(language);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
    } catch {
      format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
    }
    formats.set(language, format);
  }
  return format.format(date);
}
