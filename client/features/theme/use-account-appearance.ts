import { useHighlightPalette } from '../highlights/highlight-palette.ts';
import { useAccountTheme } from './use-theme-choice.ts';

/** The signed-in user's theme and highlight colours, applied to every page of the app. */
export function useAccountAppearance(): void {
  useAccountTheme();
  useHighlightPalette();
}
