import { BIG_SCREEN_ABOVE, BREAKPOINTS, MOBILE_SIDEBAR_MAX, SMALL_SCREEN_BELOW } from '../constants.ts';

export type ScreenSize = 'sm' | 'md' | 'lg' | 'xl' | '2xl';

/** sm up to 640, md up to 768, lg up to 1024, xl up to 1280, else 2xl. */
export function screenSize(width: number): ScreenSize {
  if (width <= BREAKPOINTS.sm) return 'sm';
  if (width <= BREAKPOINTS.md) return 'md';
  if (width <= BREAKPOINTS.lg) return 'lg';
  if (width <= BREAKPOINTS.xl) return 'xl';
  return '2xl';
}

/** A small screen is below 900. */
export function isSmallScreen(width: number): boolean {
  return width < SMALL_SCREEN_BELOW;
}

/** A big screen is above 980. */
export function isBigScreen(width: number): boolean {
  return width > BIG_SCREEN_ABOVE;
}

/** The mobile left sidebar applies at 600 or less. */
export function isMobileSidebar(width: number): boolean {
  return width <= MOBILE_SIDEBAR_MAX;
}
