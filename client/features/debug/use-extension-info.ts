import { useMemo, useSyncExternalStore } from 'react';
import { type ExtensionInfo, extensionInfo } from '../tools/environment.ts';

const ATTRIBUTES = ['mkt', 'v', 'mktv'];

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ATTRIBUTES });
  return () => observer.disconnect();
}

/** The attributes as one string, so an unchanged page gives the same snapshot. */
const snapshot = () => ATTRIBUTES.map((name) => document.documentElement.getAttribute(name) ?? '').join('\n');

/** The extension's mkt, v and mktv on <html>, followed as it writes them (it may after the page loads). */
export function useExtensionInfo(): ExtensionInfo | null {
  const marks = useSyncExternalStore(subscribe, snapshot);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `marks` is what extensionInfo() reads.
  return useMemo(() => extensionInfo(), [marks]);
}
