import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../../src/constants.ts';
import { Theme } from '../../../src/enums.ts';
import { readTheme, resolveTheme, themeBackground } from '../../../src/rules/theme.ts';

const listeners = new Set<() => void>();
const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

function stored(): Theme {
  try {
    return readTheme(localStorage.getItem(STORAGE_KEYS.theme));
  } catch {
    return Theme.system;
  }
}

let current: Theme = Theme.system;

/** Writes the shown theme onto <html> so CSS variables switch; runs before the first render. */
function apply(): void {
  const shown = resolveTheme(current, darkQuery().matches);
  const root = document.documentElement;
  root.dataset.theme = shown;
  root.style.colorScheme = shown;
  root.style.backgroundColor = themeBackground(shown);
}

export function initTheme(): void {
  current = stored();
  apply();
  darkQuery().addEventListener('change', () => {
    apply();
    for (const l of listeners) l();
  });
}

/** Spec: dark and light are stored as 'y' and 'n'; following the system removes the key. */
export function setTheme(theme: Theme): void {
  current = theme;
  try {
    if (theme === Theme.system) localStorage.removeItem(STORAGE_KEYS.theme);
    else localStorage.setItem(STORAGE_KEYS.theme, theme);
  } catch {
    // Not persisted in private mode; still applied.
  }
  apply();
  for (const l of listeners) l();
}

export const THEME_CYCLE: readonly Theme[] = [Theme.light, Theme.dark, Theme.system];

/** Each theme's name, as the toggle and the colour-theme page say it. */
export const THEME_LABEL_KEYS: Readonly<Record<Theme, string>> = {
  [Theme.light]: 'theme.light',
  [Theme.dark]: 'theme.dark',
  [Theme.system]: 'theme.system',
};

export function useTheme(): { theme: Theme; shown: 'dark' | 'light' } {
  const theme = useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    () => current,
  );
  return { theme, shown: resolveTheme(theme, darkQuery().matches) };
}
