/**
 * Text set inside a sentence in its own direction (Unicode first-strong isolate): a date, a name
 * or a number keeps its order inside a sentence of the other direction ("Chrome على macOS").
 * Elements get the same from `<bdi>` or a `dir` attribute.
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
