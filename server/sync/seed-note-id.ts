/**
 * The seed protocol's `noteIdX`, the id its plugins put in file names (`<title>-<noteIdX>.md`)
 * and read back with `-([a-z0-9_]+)\.md$` to archive or delete a note. Margin's ids hold
 * capitals and `-`, which that pattern cuts short (and a case-insensitive file system folds), so
 * on the wire a capital is `_` and its lower case, and `-` is `__`. Ids never hold `_`, so an id
 * without capitals or `-` is its own noteIdX, and an id sent back as it is (by a plugin that
 * synced before this encoding) decodes to itself.
 */
export function seedNoteIdX(noteId: string): string {
  return noteId.replace(/[A-Z-]/g, (c) => (c === '-' ? '__' : `_${c.toLowerCase()}`));
}

/** A noteIdX (or a plain note id) back to the note id. */
export function noteIdOfSeedX(noteIdX: string): string {
  return noteIdX.replace(/_(_|[a-z])/g, (_, c: string) => (c === '_' ? '-' : c.toUpperCase()));
}
