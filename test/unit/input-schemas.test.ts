import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { appRouter } from '../../server/trpc/app.router.ts';
import { isStorableText } from '../../src/rules/text.ts';
import { isCalendarDay } from '../../src/schemas/daily.ts';

type AnySchema = z.core.$ZodType;

/**
 * Every string a procedure accepts, with where it is: strings on the input side of the schema
 * (a pipe's output only sees what its input already checked).
 */
function inputStrings(schema: AnySchema, at: string, out: { at: string; schema: AnySchema }[] = []) {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const walk = (inner: unknown, where = at) => inputStrings(inner as AnySchema, where, out);
  switch (def.type) {
    case 'string':
      out.push({ at, schema });
      break;
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, AnySchema>))
        walk(value, `${at}.${key}`);
      break;
    case 'array':
      walk(def.element, `${at}[]`);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      walk(def.innerType);
      break;
    case 'pipe':
      walk(def.in);
      break;
    case 'union':
      for (const option of def.options as AnySchema[]) walk(option);
      break;
    case 'intersection':
      walk(def.left);
      walk(def.right);
      break;
    case 'record':
      walk(def.keyType, `${at}{key}`);
      walk(def.valueType, `${at}{}`);
      break;
    case 'tuple':
      for (const item of def.items as AnySchema[]) walk(item);
      break;
    case 'lazy':
      throw new Error(`${at}: lazy schemas are not walked; check them by hand`);
    default:
      break;
  }
  return out;
}

function checksOf(schema: AnySchema) {
  return (schema._zod.def.checks ?? []).map((c) => c._zod.def as unknown as Record<string, unknown>);
}

const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { inputs: AnySchema[] } }>,
).map(([path, procedure]) => ({ path, inputs: procedure._def.inputs }));
const strings = procedures.flatMap(({ path, inputs }) =>
  inputs.flatMap((input) => inputStrings(input, path)),
);

describe('every string a procedure takes', () => {
  test('the walk finds the procedures and their strings', () => {
    expect(procedures.length).toBeGreaterThan(30);
    expect(strings.length).toBeGreaterThan(40);
    expect(strings.map((s) => s.at)).toContain('notes.clipHtml.html');
  });

  test('is built on the text rule (no NUL, no lone surrogate)', () => {
    const without = strings.filter((s) => !checksOf(s.schema).some((c) => c.fn === isStorableText));
    expect(without.map((s) => s.at)).toEqual([]);
  });

  test('has a maximum length', () => {
    const unbounded = strings.filter((s) => !checksOf(s.schema).some((c) => c.check === 'max_length'));
    expect(unbounded.map((s) => s.at)).toEqual([]);
  });
});

describe('isCalendarDay', () => {
  test('accepts real dates from 1970 to 9999', () => {
    for (const day of ['1970-01-01', '2026-03-14', '2024-02-29', '2000-02-29', '9999-12-31']) {
      expect(isCalendarDay(day), day).toBe(true);
    }
  });

  test('refuses impossible, out-of-range and malformed dates', () => {
    for (const day of [
      '2026-99-99',
      '2026-02-30',
      '2025-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-00-10',
      '2026-01-00',
      '2026-13-01',
      '0000-01-01',
      '1969-12-31',
      '2026-1-1',
      '2026-01-01T00:00',
      ' 2026-01-01',
      '２０２６-01-01',
      '',
    ]) {
      expect(isCalendarDay(day), day).toBe(false);
    }
  });
});
