/** The most UTF-8 bytes of a title in a file name: with `-<id>.md` it stays under the usual 255. */
export const FILE_TITLE_MAX_BYTES = 200;
const UNTITLED = 'Untitled';

// Forbidden on Windows (and `/` everywhere), control characters, and `# ^ [ ]`, which break
// Obsidian's links to a file.
const UNSAFE = /[/\\:*?"<>|#^[\]\p{Cc}]+/gu;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Leading dots hide a file on Unix; trailing dots and spaces are dropped by Windows. */
function trimEnds(name: string): string {
  return name.replace(/^[\s.]+|[\s.]+$/gu, '');
}

function cutToBytes(text: string, maxBytes: number): string {
  const encoder = new TextEncoder();
  let out = '';
  let bytes = 0;
  for (const { segment } of graphemes.segment(text)) {
    bytes += encoder.encode(segment).length;
    if (bytes > maxBytes) break;
    out += segment;
  }
  return out;
}

function safePart(text: string, maxBytes: number): string {
  const cleaned = trimEnds(text.normalize('NFC').replace(UNSAFE, ' ').replace(/\s+/gu, ' '));
  return trimEnds(cutToBytes(cleaned, maxBytes));
}

/**
 * `<title>-<id>.md`, safe on Windows, macOS and Linux: unsafe characters become spaces, the
 * title is cut to FILE_TITLE_MAX_BYTES on a character boundary, and it is never empty.
 */
export function fileNameFor(title: string, id: string): string {
  const safeTitle = safePart(title, FILE_TITLE_MAX_BYTES) || UNTITLED;
  const safeId = safePart(id, 64);
  return safeId ? `${safeTitle}-${safeId}.md` : `${safeTitle}.md`;
}
