import { URL_CASES } from './malformed-urls.ts';

// Bad inputs made from a valid one: every field of a sample input (a procedure's, an Open API
// operation's, a sync route's) is spoiled in each of the ways an attacker or a broken client
// would, one field and one way at a time.

export type BadInputClass =
  | 'nul'
  | 'lone surrogate'
  | '1 MB string'
  | 'long string'
  | 'wrong type'
  | 'deep nesting'
  | 'not an object'
  | 'bad cursor'
  | 'bad date'
  | 'out-of-range number'
  | 'malformed url';

export interface BadInput {
  kind: BadInputClass;
  /** Where the input was spoiled, e.g. `ids.0` or `(whole input)`. */
  at: string;
  input: unknown;
}

type Path = (string | number)[];

const MEGABYTE = 'a'.repeat(1024 * 1024);
const LONG = 'a'.repeat(4000);
const DEPTH = 200;

/** A value nested `depth` levels deep, objects and arrays in turn. */
export function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

const b64 = (text: string) => Buffer.from(text).toString('base64url');

/** Cursors a list could be sent: garbage, wrong shapes, absurd dates, control characters. */
export const BAD_CURSORS = [
  'not a cursor',
  'not-a-cursor',
  '%%%',
  '2026-99-99',
  `${b64('2026-01-01T00:00:00.000Z|abcdefgh')}==`,
  b64('2026-01-01T00:00:00.000Z'),
  b64('9999-99-99T99:99:99Z|x'),
  b64('9999-99-99T99:99:99Z|abcdefgh'),
  b64('2026-01-01T00:00:00.000Z|\u0000'),
  b64('2026-01-01T00:00:00.000Z|\u0000abcdefgh'),
  b64('2026-01-01T00:00:00.000Z|abc'),
  b64('2026-01-01T00:00:00.000Z|abcdefgh|x'),
  b64('|||'),
  b64('-271821-04-20T00:00:00.000Z|abcdefgh'),
  b64('+275760-09-13T00:00:00.000Z|abcdefgh'),
  b64('0000-01-01T00:00:00.000Z|abcdefgh'),
  b64('2026-01-01|abcdefgh'),
  Buffer.from([0xff, 0xfe, 0xfd]).toString('base64url'),
  b64(JSON.stringify(['x', 'abcdefgh'])),
  b64(JSON.stringify([1e308, 'abcdefgh'])),
  b64(JSON.stringify([-1, 'abcdefgh'])),
  b64(JSON.stringify(['2026-01-01T00:00:00.000Z', 'abc'])),
  b64(JSON.stringify(['2026-01-01T00:00:00.000Z', 'abcdefgh', 3])),
  b64(JSON.stringify({ __proto__: 1 })),
  b64('[[[[[[[[[[[['),
  'x'.repeat(150),
];

/** Dates the API must refuse: impossible days, days out of its range, other formats. */
export const BAD_DATES = [
  '2026-99-99',
  '2026-02-30',
  '2025-02-29',
  '0000-01-01',
  '1969-12-31',
  '2026-1-1',
  '20260101',
  'today',
];

/**
 * Numbers no count, id, position, version or choice takes: past 2^53, 2^63 and 2^64 (a bigint
 * column's and a JSON parser's limits), negative, fractional, the largest double.
 */
const BAD_NUMBERS: readonly number[] = [1e20, 2 ** 63, 2 ** 64, -1, 1.5, 1e308];
/** The same as a query or path writes them, and the words a number parser may take for one. */
const BAD_NUMBER_TEXTS: readonly string[] = [
  '1e20',
  '9223372036854775808',
  '18446744073709551616',
  '-1',
  '1.5',
  'NaN',
  'Infinity',
  '',
];

/** Addresses no input takes (the table's usable ones, only written unusually, left out). */
const BAD_URLS: readonly string[] = URL_CASES.filter((c) => !c.usable).map((c) => c.url);

/** A field that holds an address: named so, or holding one in the sample. */
const isUrlField = (key: unknown, value: unknown) =>
  (typeof key === 'string' && /url$/i.test(key)) || (typeof value === 'string' && /^https?:\/\//.test(value));

function leaves(value: unknown, path: Path = []): { path: Path; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  }
  return [{ path, value }];
}

function withValue(input: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...Path];
  const copy = (Array.isArray(input) ? [...input] : { ...(input as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = withValue(copy[head], rest, value);
  return copy;
}

function wrongType(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return 'yes';
  return { unexpected: true };
}

/** Every bad variant of `sample`, a valid input of some procedure, operation body or sync call. */
export function badInputs(sample: unknown, options: SpoilOptions = {}): BadInput[] {
  const out: BadInput[] = [
    { kind: 'deep nesting', at: '(whole input)', input: nested(DEPTH) },
    { kind: 'not an object', at: '(whole input)', input: 'just a string' },
    { kind: 'not an object', at: '(whole input)', input: [sample] },
  ];
  if (sample === undefined) return out;
  for (const { path, value } of leaves(sample)) {
    const at = path.join('.');
    const key = path.at(-1);
    if (typeof value === 'string') {
      out.push({ kind: 'nul', at, input: withValue(sample, path, `${value}\u0000x`) });
      out.push({ kind: 'nul', at, input: withValue(sample, path, '\u0000') });
      out.push({ kind: 'lone surrogate', at, input: withValue(sample, path, `${value}\uD800`) });
      out.push({ kind: 'lone surrogate', at, input: withValue(sample, path, `\uDC00${value}`) });
      out.push({ kind: '1 MB string', at, input: withValue(sample, path, MEGABYTE) });
      // Fits in a query's URL, so it reaches the schema's maximum rather than Node's header limit.
      out.push({ kind: 'long string', at, input: withValue(sample, path, LONG) });
    }
    out.push({ kind: 'wrong type', at, input: withValue(sample, path, wrongType(value)) });
    out.push({ kind: 'deep nesting', at, input: withValue(sample, path, nested(DEPTH)) });
    for (const { kind, value: bad } of fieldSpoils(key, value, options)) {
      out.push({ kind, at, input: withValue(sample, path, bad) });
    }
  }
  // A list's sample may leave its cursor out: it is spoiled where the list takes one.
  if (sample && typeof sample === 'object' && 'limit' in sample && !('cursor' in sample)) {
    for (const cursor of options.cursors ?? BAD_CURSORS) {
      out.push({ kind: 'bad cursor', at: 'cursor', input: { ...sample, cursor } });
    }
  }
  return out;
}

interface SpoilOptions {
  /** The cursors a `cursor` field is sent (BAD_CURSORS unless said: a front adds its own forgeries). */
  cursors?: readonly string[];
}

/**
 * The spoils a field gets for what it is (a date, a cursor, a number, an address), on top of the
 * ones every field gets: values of the field's own type that no such field takes.
 */
function fieldSpoils(
  key: string | number | undefined,
  value: unknown,
  options: SpoilOptions = {},
): { kind: BadInputClass; value: unknown }[] {
  const out: { kind: BadInputClass; value: unknown }[] = [];
  if (key === 'date') for (const date of BAD_DATES) out.push({ kind: 'bad date', value: date });
  // A day parameter takes `today` too.
  if (key === 'day')
    for (const date of BAD_DATES.filter((d) => d !== 'today')) out.push({ kind: 'bad date', value: date });
  if (typeof key === 'string' && /cursor/i.test(key)) {
    for (const cursor of options.cursors ?? BAD_CURSORS) out.push({ kind: 'bad cursor', value: cursor });
  }
  if (typeof value === 'number')
    for (const n of BAD_NUMBERS) out.push({ kind: 'out-of-range number', value: n });
  if (isUrlField(key, value)) for (const url of BAD_URLS) out.push({ kind: 'malformed url', value: url });
  return out;
}

/**
 * The spoils of a field sent as text (a path segment, a query parameter): what `fieldSpoils`
 * makes, written out, numbers also as the words a parser may read as one.
 */
export function textSpoils(
  key: string,
  value: string | number,
  options: SpoilOptions = {},
): { kind: BadInputClass; value: string }[] {
  const text = String(value);
  const out: { kind: BadInputClass; value: string }[] = [
    { kind: 'nul', value: `${text}\u0000x` },
    { kind: 'nul', value: '\u0000' },
    { kind: 'lone surrogate', value: `${text}\uD800` },
    { kind: 'lone surrogate', value: `\uDC00${text}` },
    // Fits in a request line, so it reaches the field's maximum rather than Node's header limit.
    { kind: 'long string', value: LONG },
  ];
  for (const spoil of fieldSpoils(key, value, options)) {
    if (spoil.kind !== 'out-of-range number') out.push({ kind: spoil.kind, value: String(spoil.value) });
  }
  if (typeof value === 'number') {
    for (const n of BAD_NUMBER_TEXTS) out.push({ kind: 'out-of-range number', value: n });
  }
  return out;
}
