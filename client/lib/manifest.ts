/** Spec section 7: the web manifest is loaded with a build-version query. */
export function linkManifest(version: string): void {
  const link = document.createElement('link');
  link.rel = 'manifest';
  link.href = `/manifest.webmanifest?v=${encodeURIComponent(version)}`;
  document.head.appendChild(link);
}
