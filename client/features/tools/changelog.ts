/**
 * The part of CHANGELOG.md a reader of the app wants: the versions, from the first `## ` heading
 * on (the file's title and its note on the format are for the repository's readers).
 */
export function releaseNotes(changelog: string): string {
  const first = changelog.search(/^## /m);
  return first < 0 ? changelog : changelog.slice(first);
}
