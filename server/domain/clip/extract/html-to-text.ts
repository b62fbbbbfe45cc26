// Plain text of an article body: blocks become paragraphs separated by a blank line, <br> a line
// break, whitespace inside a block is collapsed (except in <pre>).
import { BLOCK_TAGS, SKIPPED_TAGS } from '../../../../src/text/blocks.ts';

export function htmlToText(root: Node): string {
  const paragraphs: string[] = [];
  let current = '';

  const endParagraph = (): void => {
    const text = current
      .split('\n')
      .map((line) => line.replace(/[ \t\f\r\u00a0]+/g, ' ').trim())
      .join('\n')
      .replace(/^\n+|\n+$/g, '');
    if (text) paragraphs.push(text);
    current = '';
  };

  const walk = (node: Node, inPre: boolean): void => {
    if (node.nodeType === 3) {
      const value = node.nodeValue ?? '';
      current += inPre ? value.replace(/\n/g, '\u2028') : value.replace(/\s+/g, ' ');
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = (node as Element).tagName.toUpperCase();
    if (SKIPPED_TAGS.has(tag)) return;
    if (tag === 'BR') {
      current += '\n';
      return;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) endParagraph();
    const pre = inPre || tag === 'PRE';
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child, pre);
    if (block) endParagraph();
  };

  walk(root, false);
  endParagraph();
  return paragraphs.join('\n\n').replace(/\u2028/g, '\n');
}
