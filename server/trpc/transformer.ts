import type { CombinedDataTransformer } from '@trpc/server';
import superjson from 'superjson';

/** Keys superjson refuses (prototype pollution); an answer holding one goes to superjson to throw. */
const REFUSED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Whether `value` is JSON as it stands: strings, booleans, null, finite numbers (not -0), and
 * arrays and plain objects of them, each object met once. For such a value superjson's answer is
 * exactly `{ json: value }` (a copy of it, with no meta), so the copy and the walk that builds
 * it can be skipped.
 */
function isPlainJson(value: unknown, seen: Set<object>): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      // Met twice: superjson notes the shared reference in its meta.
      if (seen.has(value)) return false;
      seen.add(value);
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || !isPlainJson(value[i], seen)) return false;
        }
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) {
        if (REFUSED_KEYS.has(key) || !isPlainJson((value as Record<string, unknown>)[key], seen))
          return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * superjson, as the design names it, with one shortcut on the way out: an answer that is plain
 * JSON (the list payloads carry times as numbers for this) is sent as superjson would send it,
 * `{ json: value }`, without superjson's copying walk, which cost more than the query behind a
 * 100-row list. Anything else (a Date, undefined, a Map, a shared object) goes through superjson
 * itself. Inputs and the client are untouched.
 */
export const transformer: CombinedDataTransformer = {
  input: superjson,
  output: {
    serialize: (value: unknown) =>
      isPlainJson(value, new Set()) ? { json: value } : superjson.serialize(value),
    deserialize: superjson.deserialize,
  },
};
