import { describe, expect, test } from 'vitest';
import { readTheme, resolveTheme, themeBackground } from '../../../src/rules/theme.ts';

describe('theme is dark, light or follows the system, stored as y or n', () => {
  test("'y' is dark and 'n' is light whatever the system says", () => {
    expect(resolveTheme(readTheme('y'), false)).toBe('dark');
    expect(resolveTheme(readTheme('n'), true)).toBe('light');
  });
  test('nothing stored follows the system', () => {
    expect(readTheme(null)).toBe('system');
    expect(readTheme('garbage')).toBe('system');
    expect(resolveTheme(readTheme(undefined), true)).toBe('dark');
    expect(resolveTheme(readTheme(undefined), false)).toBe('light');
  });
  test('dark is #0C0C0C and light is #F0F0F0', () => {
    expect(themeBackground('dark')).toBe('#0C0C0C');
    expect(themeBackground('light')).toBe('#F0F0F0');
  });
});
