import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { TextTooltipStyle } from '../../../src/enums.ts';
import { useUserSettings } from '../account/use-user-settings.ts';

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

/** Keeps the style on this device: the first value of the next visit, and the one used offline. */
function remember(style: TextTooltipStyle): void {
  if (style === read()) return;
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

/**
 * The text tooltip style (spec: more tools 1, hide 2, default colour 3, auto highlight 4): the
 * account's (null is more tools), and this device's last known one until that has arrived or
 * when it cannot. A choice is saved with the account.
 */
export function useTooltipStyle(): [TextTooltipStyle, (style: TextTooltipStyle) => void] {
  const onDevice = useSyncExternalStore(subscribe, read);
  const { settings, update } = useUserSettings();
  const style = settings ? (settings.textTooltipStyle ?? TextTooltipStyle.moreTools) : onDevice;
  useEffect(() => {
    if (settings) remember(style);
  }, [settings, style]);
  const choose = useCallback(
    (next: TextTooltipStyle) => {
      remember(next);
      update({ textTooltipStyle: next });
    },
    [update],
  );
  return [style, choose];
}

export const TOOLTIP_STYLE_LABEL_KEYS: Record<TextTooltipStyle, string> = {
  [TextTooltipStyle.moreTools]: 'highlights.tooltipStyle.moreTools',
  [TextTooltipStyle.hide]: 'highlights.tooltipStyle.hide',
  [TextTooltipStyle.defaultColour]: 'highlights.tooltipStyle.defaultColour',
  [TextTooltipStyle.autoHighlight]: 'highlights.tooltipStyle.autoHighlight',
};
