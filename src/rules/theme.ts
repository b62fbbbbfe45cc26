import { THEME_COLOURS } from '../constants.ts';
import { isEnumValue, Theme } from '../enums.ts';

/** The stored theme ('y' dark, 'n' light); anything else follows the system. */
export function readTheme(stored: string | null | undefined): Theme {
  return isEnumValue(Theme, stored) ? stored : Theme.system;
}

/** The theme actually shown, given whether the system prefers dark. */
export function resolveTheme(theme: Theme, systemPrefersDark: boolean): 'dark' | 'light' {
  if (theme === Theme.dark) return 'dark';
  if (theme === Theme.light) return 'light';
  return systemPrefersDark ? 'dark' : 'light';
}

/** Background colour of the shown theme: dark #0C0C0C, light #F0F0F0. */
export function themeBackground(shown: 'dark' | 'light'): string {
  return THEME_COLOURS[shown];
}
