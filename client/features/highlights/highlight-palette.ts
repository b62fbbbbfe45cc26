import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type ColourSlot, DEFAULT_SLOT_COLOURS, highlightColour } from '../../../src/enums.ts';
import { isStoredColour } from '../../../src/rules/hex-colour.ts';
import type { UserSettings } from '../../../src/schemas/user-settings.ts';
import { useUserSettings } from '../account/use-user-settings.ts';
import { useMe } from '../auth/session.ts';
import { COLOUR_LABEL_KEYS, COLOUR_SLOTS, paletteVar } from './highlight-look.ts';

// The user's six highlight colours (c1–c6, '#RRGGBB'), drawn everywhere through custom properties
// on <html>: every highlight's --hl-light / --hl-strong names them (highlight-look.ts), so the
// reader, the list, the card and the tooltip all follow one palette, and a change repaints them
// without a render. The last palette is kept in localStorage so the first paint has it.

export type Palette = Readonly<Record<ColourSlot, string>>;

const CACHE_KEY = 'margin.highlightPalette';

export const DEFAULT_PALETTE: Palette = DEFAULT_SLOT_COLOURS;

/** The palette the settings give: each slot's own colour, or its default. */
export function paletteOf(settings: Pick<UserSettings, `c${ColourSlot}`>): Palette {
  const palette = { ...DEFAULT_PALETTE };
  for (const slot of COLOUR_SLOTS) {
    const own = settings[`c${slot}`];
    if (isStoredColour(own)) palette[slot] = own.toUpperCase();
  }
  return palette;
}

/** The custom properties of a palette, for <html> or for an element that previews another one. */
export function paletteStyle(palette: Palette): Record<string, string> {
  const style: Record<string, string> = {};
  for (const slot of COLOUR_SLOTS) {
    style[paletteVar(slot, 'light')] = highlightColour(palette[slot], 'light');
    style[paletteVar(slot, 'strong')] = highlightColour(palette[slot], 'strong');
  }
  return style;
}

const colourKey = (palette: Palette) => COLOUR_SLOTS.map((slot) => palette[slot]).join();

let shown: Palette = DEFAULT_PALETTE;

/** Sets the palette's properties on <html> (the defaults need none: they are the fallbacks). */
function applyPalette(palette: Palette): void {
  if (colourKey(palette) === colourKey(shown)) return;
  shown = palette;
  const root = document.documentElement.style;
  for (const [name, value] of Object.entries(paletteStyle(palette))) root.setProperty(name, value);
  try {
    localStorage.setItem(
      CACHE_KEY,
      JSON.stringify(Object.fromEntries(COLOUR_SLOTS.map((s) => [`c${s}`, palette[s]]))),
    );
  } catch {
    // Private mode: the next visit starts from the defaults until the account's answer.
  }
}

/** Before the first render: the palette of the last visit, while the account's is asked for. */
export function initPalette(): void {
  try {
    const cached: unknown = JSON.parse(localStorage.getItem(CACHE_KEY) ?? 'null');
    if (cached && typeof cached === 'object') applyPalette(paletteOf(cached as UserSettings));
  } catch {
    // Unreadable: the defaults stay.
  }
}

/**
 * The signed-in user's highlight colours, applied to the page: the one way colours reach the
 * reader, the highlight list and the tooltip. Signed out, the defaults; while the account's
 * answer is on its way, the palette already shown.
 */
export function useHighlightPalette(): Palette {
  const { data: me } = useMe();
  const { settings } = useUserSettings();
  const palette = settings ? paletteOf(settings) : me === null ? DEFAULT_PALETTE : shown;
  // Before the browser paints, so a first render with the account's answer never shows another palette.
  useLayoutEffect(() => applyPalette(palette));
  return palette;
}

/**
 * What a colour slot is called: its colour's name while it has its default colour ("Yellow"),
 * its number once the user has chosen another ("Colour 1"), as the name no longer fits.
 */
export function useColourNames(): (slot: ColourSlot) => string {
  const { t } = useTranslation();
  const palette = useHighlightPalette();
  return (slot) =>
    palette[slot] === DEFAULT_PALETTE[slot]
      ? t(COLOUR_LABEL_KEYS[slot])
      : t('colorTheme.slotName', { number: slot });
}
