import { describe, expect, test } from 'vitest';
import { findBlocks, mergeBlocks, outsideBlocks } from '../../plugins/core/blocks.ts';

const block = (name: string, body: string) => `%%begin ${name}%%\n${body}\n%%end ${name}%%`;

describe('partial write: the marked blocks', () => {
  test('finds each named block once, markers included', () => {
    const text = `# T\n${block('highlights', '- a')}\nmine\n${block('pagenote', 'p')}\n`;
    expect(findBlocks(text).map((b) => [b.name, text.slice(b.start, b.end)])).toEqual([
      ['highlights', block('highlights', '- a')],
      ['pagenote', block('pagenote', 'p')],
    ]);
  });

  test("replaces only the blocks' contents and keeps the user's text around them", () => {
    const existing = `---\nmargin_id: n1\nmy_rating: 5\n---\n# Title\nMy intro.\n${block('highlights', '- old')}\nMy thoughts between.\n${block('pagenote', 'old note')}\nMy ending.\n`;
    const incoming = `---\nmargin_id: n1\n---\n# New title\n${block('highlights', '- old\n- new')}\n${block('pagenote', 'new note')}\n`;
    expect(mergeBlocks(existing, incoming)).toBe(
      `---\nmargin_id: n1\nmy_rating: 5\n---\n# Title\nMy intro.\n${block('highlights', '- old\n- new')}\nMy thoughts between.\n${block('pagenote', 'new note')}\nMy ending.\n`,
    );
  });

  test('a block whose markers the user removed is appended at the end, nothing is overwritten', () => {
    const existing = `# Title\nI rewrote everything here.\n${block('pagenote', 'note')}\n`;
    const incoming = `# Title\n${block('highlights', '- h')}\n${block('pagenote', 'note 2')}\n`;
    expect(mergeBlocks(existing, incoming)).toBe(
      `# Title\nI rewrote everything here.\n${block('pagenote', 'note 2')}\n\n${block('highlights', '- h')}\n`,
    );
  });

  test('a file without any markers keeps all of its text and gets the blocks appended', () => {
    expect(mergeBlocks('only mine\n\n', block('highlights', '- h'))).toBe(
      `only mine\n\n${block('highlights', '- h')}\n`,
    );
  });

  test('a begin marker left without its end is not stretched over the user text after it', () => {
    const existing = `%%begin highlights%%\n- old\nthe end marker was deleted; this is mine\n`;
    const first = mergeBlocks(existing, block('highlights', '- new'));
    expect(first).toBe(`${existing.trimEnd()}\n\n${block('highlights', '- new')}\n`);
    // The next sync replaces the appended block, still leaving the user's lines alone.
    const second = mergeBlocks(first, block('highlights', '- newer'));
    expect(second).toBe(`${existing.trimEnd()}\n\n${block('highlights', '- newer')}\n`);
  });

  test('blocks only the file has stay; a template without markers changes nothing', () => {
    const existing = `${block('mdcontent', 'old body')}\nmine\n`;
    expect(mergeBlocks(existing, block('highlights', '- h'))).toBe(
      `${block('mdcontent', 'old body')}\nmine\n\n${block('highlights', '- h')}\n`,
    );
    expect(mergeBlocks(existing, '# no markers at all\n')).toBe(existing);
  });

  test('replacement text is taken literally ($ patterns, marker-like names)', () => {
    const existing = `${block('highlights', 'x')}\n`;
    const incoming = block('highlights', "costs $& and $1, and '%%end other%%'");
    expect(mergeBlocks(existing, incoming)).toBe(`${incoming}\n`);
  });

  test('CRLF files keep their line endings outside the blocks', () => {
    const existing = `mine\r\n${block('highlights', 'a')}\r\nmore mine\r\n`;
    expect(mergeBlocks(existing, block('highlights', 'b'))).toBe(
      `mine\r\n${block('highlights', 'b')}\r\nmore mine\r\n`,
    );
  });

  test("the text outside the blocks (what tells the user's writing apart)", () => {
    const text = `# T\n${block('highlights', '- a')}\nmine\n${block('pagenote', 'p')}\n`;
    expect(outsideBlocks(text)).toBe('# T\n\nmine\n\n');
    // New block contents do not change it; the user's writing does.
    expect(outsideBlocks(mergeBlocks(text, block('highlights', '- a\n- b')))).toBe(outsideBlocks(text));
    expect(outsideBlocks(text.replace('mine', 'mine, edited'))).not.toBe(outsideBlocks(text));
  });
});
