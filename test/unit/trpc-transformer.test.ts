import fc from 'fast-check';
import superjson from 'superjson';
import { describe, expect, test } from 'vitest';
import { transformer } from '../../server/trpc/transformer.ts';

/** What each side puts on the wire, or the error it throws. */
function wire(serialize: (value: unknown) => unknown, value: unknown): string {
  try {
    return JSON.stringify(serialize(value));
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
}

const ours = (value: unknown) => transformer.output.serialize(value);

describe('tRPC output transformer', () => {
  test('sends exactly what superjson sends, for JSON and for anything else', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.anything({ withDate: true, withMap: true, withSet: true })),
        (value) => {
          expect(wire(ours, value)).toBe(wire(superjson.serialize, value));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('a list with dates, a shared object, -0 and undefined keeps superjson meta', () => {
    const shared = { a: 1 };
    for (const value of [
      { items: [{ createdAt: new Date(0) }] },
      { first: shared, second: shared },
      { zero: -0 },
      { gone: undefined },
      undefined,
    ]) {
      expect(wire(ours, value)).toBe(wire(superjson.serialize, value));
      expect(superjson.deserialize(ours(value) as never)).toEqual(value);
    }
    const holes = [1];
    holes[2] = 3;
    expect(wire(ours, holes)).toBe(wire(superjson.serialize, holes));
  });

  test('plain JSON goes out as it is, with no meta', () => {
    const list = { items: [{ id: 'a', createdAt: 1_700_000_000_000, tags: ['x'] }], nextCursor: null };
    expect(ours(list)).toEqual({ json: list });
    expect(superjson.deserialize(ours(list) as never)).toEqual(list);
  });

  test('a key superjson refuses still throws', () => {
    const polluted = JSON.parse('{"constructor": 1}');
    expect(() => ours(polluted)).toThrow(/prototype pollution/);
  });
});
