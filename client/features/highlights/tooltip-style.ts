import { useSyncExternalStore } from 'react';
import { TextTooltipStyle } from '../../../src/enums.ts';

const KEY = 'margin.textTooltipStyle';
const VALUES: readonly number[] = Object.values(TextTooltipStyle);
const listeners = new Set<() => void>();

function read(): TextTooltipStyle {
  try {
    const value = Number(localStorage.getItem(KEY));
    return VALUES.includes(value) ? (value as TextTooltipStyle) : TextTooltipStyle.moreTools;
  } catch {
    return TextTooltipStyle.moreTools;
  }
}

function setTooltipStyle(style: TextTooltipStyle): void {
  try {
    localStorage.setItem(KEY, String(style));
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The text tooltip style (spec: more tools 1, hide 2, default colour 3, auto highlight 4), kept in localStorage. */
export function useTooltipStyle(): [TextTooltipStyle, (style: TextTooltipStyle) => void] {
  return [useSyncExternalStore(subscribe, read), setTooltipStyle];
}

export const TOOLTIP_STYLE_LABEL_KEYS: Record<TextTooltipStyle, string> = {
  [TextTooltipStyle.moreTools]: 'highlights.tooltipStyle.moreTools',
  [TextTooltipStyle.hide]: 'highlights.tooltipStyle.hide',
  [TextTooltipStyle.defaultColour]: 'highlights.tooltipStyle.defaultColour',
  [TextTooltipStyle.autoHighlight]: 'highlights.tooltipStyle.autoHighlight',
};
