/** What the browser extension's content script writes on the app's <html> (spec: mkt, v and mktv). */
export const EXTENSION_MARKS = ['mkt', 'v', 'mktv'];

/**
 * Calls `onChange` whenever the extension writes its marks (or the `marks` named): it may, after
 * the app has started.
 */
export function subscribeToExtensionMarks(onChange: () => void, marks = EXTENSION_MARKS): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: marks });
  return () => observer.disconnect();
}
