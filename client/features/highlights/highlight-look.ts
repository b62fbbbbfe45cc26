import type { CSSProperties } from 'react';
import {
  type ColourSlot,
  type ColourStrength,
  DEFAULT_SLOT_COLOURS,
  HighlightStyle,
  highlightColour,
} from '../../../src/enums.ts';

export const COLOUR_SLOTS = [1, 2, 3, 4, 5, 6] as const satisfies readonly ColourSlot[];
export const HIGHLIGHT_STYLES = [
  HighlightStyle.background,
  HighlightStyle.underline,
  HighlightStyle.wavyUnderline,
  HighlightStyle.bold,
] as const;

export function isColourSlot(value: number): value is ColourSlot {
  return (COLOUR_SLOTS as readonly number[]).includes(value);
}

/** The slot a highlight is drawn in: its own, or c1 when unknown. */
export function knownSlot(slotId: number): ColourSlot {
  return isColourSlot(slotId) ? slotId : 1;
}

/** The style a highlight is drawn in: its own, or background when unknown. */
export function knownStyle(style: number): HighlightStyle {
  return (HIGHLIGHT_STYLES as readonly number[]).includes(style)
    ? (style as HighlightStyle)
    : HighlightStyle.background;
}

/** The custom property on <html> holding a slot's colour in the user's palette (highlight-palette.ts). */
export function paletteVar(slot: ColourSlot, strength: ColourStrength): string {
  return `--hl-c${slot}-${strength}`;
}

/**
 * CSS custom properties a highlight's element carries: light (background) and strong (lines,
 * bold). They name the palette's properties rather than copy them, so a change of the user's
 * colours repaints every highlight on the page at once (the default until the palette is set).
 */
export function highlightColours(slotId: number): Record<'--hl-light' | '--hl-strong', string> {
  const slot = knownSlot(slotId);
  const hex = DEFAULT_SLOT_COLOURS[slot];
  return {
    '--hl-light': `var(${paletteVar(slot, 'light')}, ${highlightColour(hex, 'light')})`,
    '--hl-strong': `var(${paletteVar(slot, 'strong')}, ${highlightColour(hex, 'strong')})`,
  };
}

/** The same, as a React style object. */
export function highlightVars(slotId: number): CSSProperties {
  return highlightColours(slotId) as CSSProperties;
}

/** The class naming a style (1 background, 2 underline, 3 wavy underline, 4 bold); unknown → background. */
export function styleClass(style: number): string {
  return `hl-style-${knownStyle(style)}`;
}

export const STYLE_LABEL_KEYS: Record<number, string> = {
  [HighlightStyle.background]: 'highlights.style.background',
  [HighlightStyle.underline]: 'highlights.style.underline',
  [HighlightStyle.wavyUnderline]: 'highlights.style.wavyUnderline',
  [HighlightStyle.bold]: 'highlights.style.bold',
};

export const COLOUR_LABEL_KEYS: Record<ColourSlot, string> = {
  1: 'highlights.colour.yellow',
  2: 'highlights.colour.green',
  3: 'highlights.colour.blue',
  4: 'highlights.colour.pink',
  5: 'highlights.colour.orange',
  6: 'highlights.colour.purple',
};
