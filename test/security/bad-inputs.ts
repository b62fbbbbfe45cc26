// Bad inputs made from a valid one: every field of a procedure's sample input is spoiled in
// each of the ways an attacker or a broken client would, one field and one way at a time.

export type BadInputClass =
  | 'nul'
  | 'lone surrogate'
  | '1 MB string'
  | 'long string'
  | 'wrong type'
  | 'deep nesting'
  | 'not an object'
  | 'bad cursor'
  | 'bad date';

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

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Cursors a list could be sent: garbage, wrong shapes, absurd dates, control characters. */
export const BAD_CURSORS = [
  'not-a-cursor',
  '%%%',
  Buffer.from('2026-01-01T00:00:00.000Z').toString('base64url'),
  Buffer.from('9999-99-99T99:99:99Z|x').toString('base64url'),
  Buffer.from('2026-01-01T00:00:00.000Z|\u0000').toString('base64url'),
  Buffer.from('|||').toString('base64url'),
  Buffer.from('-271821-04-20T00:00:00.000Z|abcdefgh').toString('base64url'),
  '2026-99-99',
];

export const BAD_DATES = ['2026-99-99', '2026-02-30', '0000-01-01', '2026-1-1', '20260101'];

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

/** Every bad variant of `sample`, a valid input of some procedure. */
export function badInputs(sample: unknown): BadInput[] {
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
    if (key === 'date') {
      for (const date of BAD_DATES) out.push({ kind: 'bad date', at, input: withValue(sample, path, date) });
    }
  }
  if (sample && typeof sample === 'object' && 'limit' in sample) {
    for (const cursor of BAD_CURSORS) {
      out.push({ kind: 'bad cursor', at: 'cursor', input: { ...sample, cursor } });
    }
  }
  return out;
}
