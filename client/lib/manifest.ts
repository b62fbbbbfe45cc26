/** The web manifest is loaded with a build-version query, so each build is fetched anew. */
export function linkManifest(version: string): void {
  const link = document.createElement('link');
  link.rel = 'manifest';
  link.href = `/manifest.webmanifest?v=${encodeURIComponent(version)}`;
  document.head.appendChild(link);
}
