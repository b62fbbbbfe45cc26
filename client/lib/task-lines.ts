// Task list items (`- [ ]`, `- [x]`) of the Markdown renderer (markdown.ts), and ticking one in
// the source. Apart from the renderer so an editor can tick a task without loading KaTeX.

/** A list item's task box, right after its marker: `[ ]`, `[x]` or `[X]`, then a space or the end. */
export const TASK = /^\[([ xX])\](?:\s+|$)/;

/** A task's source line up to its box, and the box's end: quote marks, the list marker, `[`; `]`. */
const TASK_LINE = /^((?:\s{0,3}>\s?)*\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+\[)[ xX](\](?:\s|$))/;

/**
 * The Markdown with the task on source line `line` (as the renderer's `data-task-line` names it,
 * counting \r\n, \r and \n as line ends) ticked or cleared, every other byte untouched;
 * unchanged when that line holds no task.
 */
export function toggleTask(markdown: string, line: number, checked: boolean): string {
  const parts = markdown.split(/(\r\n?|\n)/);
  const index = line * 2;
  const source = parts[index];
  if (source === undefined || !TASK_LINE.test(source)) return markdown;
  parts[index] = source.replace(TASK_LINE, `$1${checked ? 'x' : ' '}$2`);
  return parts.join('');
}
