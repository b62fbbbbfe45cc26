import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { clock } from '../../../clock.ts';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(advancedFormat);

export const DEFAULT_DATE_FORMAT = 'YYYY-MM-DD HH:mm';

/** One formatter per zone, made once: making one per call cost most of a sync's rendering time. */
const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat | null {
  let format = zoneFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      format = null;
    }
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** The zone when the runtime knows it, else UTC (a user's stored zone may be stale or mistyped). */
export function validTimeZone(timeZone: string): string {
  return zoneFormat(timeZone) ? timeZone : 'UTC';
}

/** The zone's offset from UTC at instant `ms`, in minutes. */
function offsetMinutes(ms: number, timeZone: string): number {
  const format = zoneFormat(timeZone);
  if (!format) return 0;
  const part = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(
    part.year ?? 1970,
    (part.month ?? 1) - 1,
    part.day ?? 1,
    part.hour,
    part.minute,
    part.second,
  );
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** A format with a zone-name token (`z`, `zzz`) outside `[…]` escapes, which needs the tz plugin. */
const ZONE_NAME = /z/;
const ESCAPED = /\[[^\]]*]/g;

/**
 * Epoch milliseconds of a template value: epoch seconds or milliseconds (numbers or digit
 * strings; below 1e11 counts as seconds, i.e. before 5138 AD), an ISO string, `now`, or a Date.
 * Null for nothing, zero or anything unreadable (the seed's `date` printed nothing for those).
 */
export function toEpochMs(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === 'now' || text === 'today') return clock.now().getTime();
    if (/^-?\d+(\.\d+)?$/.test(text)) return toEpochMs(Number(text));
    const parsed = Date.parse(text);
    return Number.isNaN(parsed) ? null : parsed;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  return value < 1e11 ? value * 1000 : value;
}

/** `value` formatted with a moment/dayjs format (or a Liquid strftime one) in `timeZone`; '' when it is no time. */
export function formatDate(value: unknown, format: string, timeZone: string): string {
  const ms = toEpochMs(value);
  if (ms === null) return '';
  const pattern = format.includes('%') ? fromStrftime(format) : format;
  if (ZONE_NAME.test(pattern.replace(ESCAPED, '')))
    return dayjs(ms).tz(validTimeZone(timeZone)).format(pattern);
  return dayjs.utc(ms).utcOffset(offsetMinutes(ms, timeZone)).format(pattern);
}

// Liquid's own `date` takes strftime formats; the common directives map onto dayjs tokens.
const STRFTIME: Record<string, string> = {
  Y: 'YYYY',
  y: 'YY',
  m: 'MM',
  '-m': 'M',
  d: 'DD',
  '-d': 'D',
  e: 'D',
  H: 'HH',
  '-H': 'H',
  I: 'hh',
  '-I': 'h',
  M: 'mm',
  S: 'ss',
  L: 'SSS',
  p: 'A',
  P: 'a',
  b: 'MMM',
  h: 'MMM',
  B: 'MMMM',
  a: 'ddd',
  A: 'dddd',
  z: 'ZZ',
  Z: 'z',
  s: 'X',
  F: 'YYYY-MM-DD',
  T: 'HH:mm:ss',
  R: 'HH:mm',
  '%': '[%]',
};

function fromStrftime(format: string): string {
  return format
    .split(/(%-?[A-Za-z%])/)
    .map((part, i) => {
      if (i % 2 === 1) return STRFTIME[part.slice(1)] ?? `[${part}]`;
      return part ? `[${part.replaceAll(']', '')}]` : '';
    })
    .join('');
}
