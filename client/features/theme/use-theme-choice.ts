import { useCallback, useLayoutEffect } from 'react';
import { Theme } from '../../../src/enums.ts';
import { readTheme } from '../../../src/rules/theme.ts';
import type { StoredTheme } from '../../../src/schemas/user-settings.ts';
import { useUserSettings } from '../account/use-user-settings.ts';
import { setTheme, useTheme } from './theme-store.ts';

/** As the account stores it: 'y' dark, 'n' light, null for following the system. */
const storedTheme = (theme: Theme): StoredTheme | null => (theme === Theme.system ? null : theme);

/**
 * The theme and the user's choice of it: shown at once, kept on this device, and saved with the
 * account when signed in, so it follows them to other browsers.
 */
export function useThemeChoice(): [Theme, (theme: Theme) => void] {
  const { theme } = useTheme();
  const { update } = useUserSettings();
  const choose = useCallback(
    (next: Theme) => {
      setTheme(next);
      update({ theme: storedTheme(next) });
    },
    [update],
  );
  return [theme, choose];
}

/** Signed in, the account's theme wins over this device's (and comes back if a change is refused). */
export function useAccountTheme(): void {
  const { settings } = useUserSettings();
  const accountTheme = settings ? readTheme(settings.theme) : undefined;
  // Before the browser paints: with the account's answer in the page, no other theme is shown.
  useLayoutEffect(() => {
    if (accountTheme) setTheme(accountTheme);
  }, [accountTheme]);
}
