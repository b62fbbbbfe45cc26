import { describe, expect, test } from 'vitest';
import { readBoolPref, writeBoolPref } from '../../../src/rules/bool-pref.ts';

describe('a boolean preference is stored as n for off and anything else for on', () => {
  test("'n' is off", () => expect(readBoolPref('n')).toBe(false));
  test('anything else is on', () => {
    for (const v of ['y', '', 'N', 'no', '0', 'false']) expect(readBoolPref(v)).toBe(true);
  });
  test('missing values use the default', () => {
    expect(readBoolPref(null)).toBe(true);
    expect(readBoolPref(undefined, false)).toBe(false);
    expect(readBoolPref(null, false)).toBe(false);
  });
  test("writes 'y' and 'n', which read back the same", () => {
    expect(writeBoolPref(true)).toBe('y');
    expect(writeBoolPref(false)).toBe('n');
    expect(readBoolPref(writeBoolPref(false), true)).toBe(false);
    expect(readBoolPref(writeBoolPref(true), false)).toBe(true);
  });
});
