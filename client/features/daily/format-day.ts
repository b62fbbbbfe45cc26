/** A calendar day 'YYYY-MM-DD' in words for the current language, e.g. "Monday, 2 March 2026". */
export function formatDay(date: string, language: string, style: 'full' | 'medium' = 'full'): string {
  const instant = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(instant.getTime())) return date;
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: style, timeZone: 'UTC' }).format(instant);
  } catch {
    return date;
  }
}
