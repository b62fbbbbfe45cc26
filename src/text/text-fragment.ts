/** Passages up to this long go whole into the fragment; longer ones by their start and end. */
const WHOLE_MAX = 80;
/** The start and end of a longer passage: this many words, or characters where words have no spaces. */
const EDGE_WORDS = 5;
const EDGE_CHARS = 24;

/** A text directive's term: percent-encoded, including the `-`, `,` and `&` it uses as syntax. */
const term = (text: string) => encodeURIComponent(text).replace(/-/g, '%2D');

function edges(passage: string): [string, string] {
  const words = passage.split(' ');
  if (words.length > EDGE_WORDS * 2)
    return [words.slice(0, EDGE_WORDS).join(' '), words.slice(-EDGE_WORDS).join(' ')];
  return [passage.slice(0, EDGE_CHARS).trim(), passage.slice(-EDGE_CHARS).trim()];
}

/**
 * A URL fragment that scrolls a browser to `passage` on its page and marks it (a text fragment,
 * `#:~:text=start,end`), or '' for no text. Browsers match it against the page's rendered text,
 * whitespace collapsed.
 */
export function textFragment(passage: string): string {
  const text = passage.replace(/\s+/g, ' ').trim();
  if (!text) return '';
  if (text.length <= WHOLE_MAX) return `#:~:text=${term(text)}`;
  const [start, end] = edges(text);
  return `#:~:text=${term(start)},${term(end)}`;
}
