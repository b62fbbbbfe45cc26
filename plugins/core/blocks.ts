// Partial writing (writeStyle 2): the server's Markdown marks the parts it owns as
// `%%begin <name>%%` … `%%end <name>%%` (highlights, pagenote, mdcontent); everything else in
// an existing file belongs to the user.

export interface MarkedBlock {
  name: string;
  /** Offsets of the whole block, markers included. */
  start: number;
  end: number;
  text: string;
}

/**
 * A block is a begin marker, then text holding no second begin marker of the same name, then
 * its end marker. So a begin marker left behind by an edit is skipped rather than stretched
 * over the user's text up to a later end marker.
 */
const BLOCK = /%%begin ([\w-]+)%%(?:(?!%%begin \1%%)[\s\S])*?%%end \1%%/g;

/** The marked blocks of `text`, the first of each name, in order. */
export function findBlocks(text: string): MarkedBlock[] {
  const blocks: MarkedBlock[] = [];
  for (const match of text.matchAll(BLOCK)) {
    const name = match[1]!;
    if (blocks.some((block) => block.name === name)) continue;
    blocks.push({ name, start: match.index, end: match.index + match[0].length, text: match[0] });
  }
  return blocks;
}

/** `text` without its marked blocks: what in a partially written file is not the server's to replace. */
export function outsideBlocks(text: string): string {
  let outside = '';
  let at = 0;
  for (const block of findBlocks(text).sort((a, b) => a.start - b.start)) {
    outside += text.slice(at, block.start);
    at = block.end;
  }
  return outside + text.slice(at);
}

/**
 * `existing` with each of `incoming`'s blocks put in place of the block of the same name.
 * A block the file no longer has (the user removed its markers) is appended at the end, never
 * written over the user's text. Blocks only the file has are left alone. When `incoming` has
 * no blocks at all (a template without markers), the file is kept as it is.
 */
export function mergeBlocks(existing: string, incoming: string): string {
  let merged = existing;
  const missing: string[] = [];
  for (const block of findBlocks(incoming)) {
    const old = findBlocks(merged).find((candidate) => candidate.name === block.name);
    if (old) merged = merged.slice(0, old.start) + block.text + merged.slice(old.end);
    else missing.push(block.text);
  }
  if (missing.length === 0) return merged;
  const body = merged.trimEnd();
  return `${body}${body ? '\n\n' : ''}${missing.join('\n\n')}\n`;
}
