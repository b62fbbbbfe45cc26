import { useMemo, useSyncExternalStore } from 'react';
import { EXTENSION_MARKS, subscribeToExtensionMarks } from '../../lib/extension-marks.ts';
import { type ExtensionInfo, extensionInfo } from '../tools/environment.ts';

/** The attributes as one string, so an unchanged page gives the same snapshot. */
const snapshot = () =>
  EXTENSION_MARKS.map((name) => document.documentElement.getAttribute(name) ?? '').join('\n');

/** The extension's mkt, v and mktv on <html>, followed as it writes them (it may after the page loads). */
export function useExtensionInfo(): ExtensionInfo | null {
  const marks = useSyncExternalStore(subscribeToExtensionMarks, snapshot);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `marks` is what extensionInfo() reads.
  return useMemo(() => extensionInfo(), [marks]);
}
