import type { Currency } from '../../../src/schemas/membership.ts';

const formats = new Map<string, Intl.NumberFormat>();

function formatFor(language: string, currency: Currency): Intl.NumberFormat {
  const key = `${language}|${currency}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(language, { style: 'currency', currency });
    } catch {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    }
    formats.set(key, format);
  }
  return format;
}

/**
 * An amount in the currency's minor unit (cents, fen) as a price in the reader's language:
 * 499 USD → "$4.99", "4,99 $US"; 1800 CNY → "¥18.00", "CN¥18.00".
 */
export function formatMoney(amount: number, currency: Currency, language: string): string {
  const format = formatFor(language, currency);
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}
