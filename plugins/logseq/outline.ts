import type { BatchBlock, LogseqBlock } from './logseq-api.ts';

// Logseq keeps a page as a tree of blocks; the server sends it as outline Markdown (`- ` bullets
// nested by indentation, page properties as `key:: value` lines before the first bullet).

const BULLET = /^([ \t]*)-(?: (.*))?$/;

function indentWidth(whitespace: string): number {
  let width = 0;
  for (const char of whitespace) width += char === '\t' ? 4 : 1;
  return width;
}

/** Removes up to `width` columns of leading whitespace. */
function dedent(line: string, width: number): string {
  let column = 0;
  let at = 0;
  while (at < line.length && column < width && (line[at] === ' ' || line[at] === '\t')) {
    column += line[at] === '\t' ? 4 : 1;
    at++;
  }
  return line.slice(at);
}

/**
 * Outline Markdown → blocks. Lines before the first bullet become one first block (the page's
 * properties); a line that is not a bullet continues the block above it.
 */
export function parseOutline(markdown: string): BatchBlock[] {
  const roots: BatchBlock[] = [];
  const stack: { indent: number; block: BatchBlock }[] = [];
  const preamble: string[] = [];
  for (const line of markdown.split(/\r?\n/)) {
    const bullet = BULLET.exec(line);
    if (bullet) {
      const indent = indentWidth(bullet[1]!);
      while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
      const block: BatchBlock = { content: bullet[2] ?? '' };
      const parent = stack[stack.length - 1]?.block;
      if (!parent) roots.push(block);
      else if (parent.children) parent.children.push(block);
      else parent.children = [block];
      stack.push({ indent, block });
      continue;
    }
    const current = stack[stack.length - 1];
    if (current) current.block.content += `\n${dedent(line, current.indent + 2)}`;
    else preamble.push(line);
  }
  const properties = preamble.join('\n').trim();
  if (properties) roots.unshift({ content: properties });
  trimContents(roots);
  return roots;
}

function trimContents(blocks: BatchBlock[]): void {
  for (const block of blocks) {
    block.content = block.content.trimEnd();
    if (block.children) trimContents(block.children);
  }
}

function blockText(block: LogseqBlock | BatchBlock): string {
  return (
    ('content' in block ? block.content : undefined) ?? ('title' in block ? block.title : undefined) ?? ''
  );
}

function isPropertiesOnly(text: string): boolean {
  return text !== '' && text.split('\n').every((line) => /^[\w-]+:: /.test(line) || /^[\w-]+::$/.test(line));
}

/**
 * Blocks → outline Markdown, tab-indented as Logseq writes its files. A first block holding only
 * properties is written without a bullet, as page properties.
 */
export function serializeOutline(blocks: ReadonlyArray<LogseqBlock | BatchBlock>): string {
  const lines: string[] = [];
  const write = (block: LogseqBlock | BatchBlock, depth: number) => {
    const indent = '\t'.repeat(depth);
    const [first = '', ...rest] = blockText(block).split('\n');
    lines.push(`${indent}-${first ? ` ${first}` : ''}`);
    for (const line of rest) lines.push(`${indent}  ${line}`);
    for (const child of block.children ?? []) if (!Array.isArray(child)) write(child, depth + 1);
  };
  blocks.forEach((block, index) => {
    const text = blockText(block);
    if (index === 0 && (('preBlock?' in block && block['preBlock?']) || isPropertiesOnly(text))) {
      lines.push(text, '');
      return;
    }
    write(block, 0);
  });
  return `${lines.join('\n')}\n`;
}
