import { COUNT_THOUSANDS_FROM } from '../constants.ts';

function numberFormat(locale: string | undefined, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(locale, options);
  } catch {
    // An unknown locale tag must not break a list render.
    return new Intl.NumberFormat('en', options);
  }
}

/**
 * A count for display: 10000 or more in thousands with k, one decimal, cut not rounded so a
 * count is never overstated (12345 → "12.3k", 19999 → "19.9k", 10000 → "10k"); smaller numbers
 * through Intl.NumberFormat for the locale (1234 → "1,234" in en, "1.234" in de).
 */
export function formatCount(n: number, locale?: string): string {
  const value = Number.isFinite(n) ? n : 0;
  if (Math.abs(value) >= COUNT_THOUSANDS_FROM) {
    const thousands = Math.trunc(value / 100) / 10;
    return `${numberFormat(locale, { maximumFractionDigits: 1 }).format(thousands)}k`;
  }
  return numberFormat(locale).format(value);
}
