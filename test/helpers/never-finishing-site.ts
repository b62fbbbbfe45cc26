// A page whose extraction never finishes in practice, for tests of the extraction time limit.
//
// Readability rewrites every srcset in the article with /(\S+)(\s+[\d.]+[xw])?(\s*(?:,|$))/g. On
// a long run of non-space characters followed by another word, that expression backtracks over
// the rest of the run from every starting position, so its cost grows with the square of the
// run's length: 64,000 characters take about 17 s on a 2-core machine, and the 2,000,000 below
// would take hours. The page is still small (2 MB) and parses in a moment, and a worker that is
// terminated stops at once. A healthy page extracts in milliseconds, so a limit of a second or two
// tells the two apart on any machine, however loaded.
//
// If an upgrade of @mozilla/readability makes this page finish, the time-limit tests fail (the
// extraction resolves instead of timing out): find another input that never completes.

const PARAGRAPH =
  '<p>An ordinary paragraph of article text, long enough to be scored by the parser as the body of the page, about gardens, soil and the weather.</p>';

const NEVER_FINISHING_URL_LENGTH = 2_000_000;

export function neverFinishingPage(): string {
  return `<!doctype html><html><head><title>Never finishes</title></head><body><article>${PARAGRAPH.repeat(5)}<img src="photo.png" srcset="${'a'.repeat(NEVER_FINISHING_URL_LENGTH)} b"></article></body></html>`;
}
