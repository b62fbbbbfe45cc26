import { describe, expect, test } from 'vitest';
import { renderMarkdown } from '../../client/lib/markdown.ts';
import { toggleTask } from '../../client/lib/task-lines.ts';

describe('the Markdown renderer for annotations and daily notes', () => {
  test('HTML in the source is shown as text, never run', () => {
    const html = renderMarkdown('<img src=x onerror=alert(1)> and <script>alert(2)</script>');
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain('&lt;script&gt;');
  });

  test('only safe links become links', () => {
    expect(renderMarkdown('[ok](https://example.com)')).toContain('href="https://example.com"');
    expect(renderMarkdown('[in app](/?pi=abc&vs=article)')).toContain('href="/?pi=abc&amp;vs=article"');
    expect(renderMarkdown('[bad](javascript:alert(1))')).not.toContain('href="javascript');
  });

  test('emphasis, code, lists, quotes and headings', () => {
    const html = renderMarkdown('# Title\n\n**bold** *it* `x<y`\n\n- one\n- two\n\n> quoted');
    expect(html).toContain('<h1');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>it</em>');
    expect(html).toContain('<code>x&lt;y</code>');
    expect(html).toMatch(/<ul>.*<li[^>]*>one<\/li>/s);
    expect(html).toContain('<blockquote');
  });

  test('math is typeset by KaTeX, inline and display', () => {
    const html = renderMarkdown('Pythagoras $a^2+b^2=c^2$ and $$\\int_0^1 x\\,dx$$');
    expect(html).toContain('class="katex"');
    expect(html).toContain('katex-display');
  });
});

describe('task lists', () => {
  /** Each task's checkbox as [source line, ticked, enabled], in the order rendered. */
  function boxes(html: string): [number, boolean, boolean][] {
    return [...html.matchAll(/<input type="checkbox"[^>]*>/g)].map(([box]) => [
      Number(/data-task-line="(\d+)"/.exec(box)?.[1]),
      / checked/.test(box),
      !/ disabled/.test(box),
    ]);
  }

  test('- [ ] and - [x] items are labelled checkboxes, read-only unless asked for; other items stay text', () => {
    const source = '- [ ] buy milk\n- [x] call **Ann**\n- [X] done too\n- plain item\n- [y] not a task';
    const html = renderMarkdown(source);
    expect(boxes(html)).toEqual([
      [0, false, false],
      [1, true, false],
      [2, true, false],
    ]);
    expect(html).toContain('<ul class="task-list">');
    expect(html).toMatch(/<label><input[^>]*> <span>call <strong>Ann<\/strong><\/span><\/label>/);
    expect(html).toContain('<li dir="auto">plain item</li>');
    expect(html).toContain('<li dir="auto">[y] not a task</li>');
    expect(boxes(renderMarkdown(source, { checkableTasks: true })).map(([, , enabled]) => enabled)).toEqual([
      true,
      true,
      true,
    ]);
    expect(renderMarkdown('- one\n- two')).toContain('<ul>');
  });

  test('a task names its source line through quotes, ordered lists, CRLF and multi-line display math; none in code', () => {
    const source = [
      '# Day', // 0
      '$$', // 1
      'a^2', // 2
      '$$', // 3
      '1. [ ] first', // 4
      '', // 5
      '> - [x] quoted', // 6
      '```', // 7
      '- [ ] in code', // 8
      '```', // 9
      '* [ ] last <b>', // 10
    ].join('\r\n');
    const html = renderMarkdown(source, { checkableTasks: true });
    expect(boxes(html)).toEqual([
      [4, false, true],
      [6, true, true],
      [10, false, true],
    ]);
    expect(html).toContain('katex-display');
    expect(html).toContain('- [ ] in code');
    expect(html).toContain('last &lt;b&gt;');
  });

  test('toggleTask ticks or clears exactly the named line and leaves every other byte alone', () => {
    const source = '- [ ] one\r\n- [ ] two\n> * [x] three\rtext [ ] here\n- [ ]';
    expect(toggleTask(source, 1, true)).toBe('- [ ] one\r\n- [x] two\n> * [x] three\rtext [ ] here\n- [ ]');
    expect(toggleTask(source, 2, false)).toBe('- [ ] one\r\n- [ ] two\n> * [ ] three\rtext [ ] here\n- [ ]');
    expect(toggleTask(source, 4, true)).toBe('- [ ] one\r\n- [ ] two\n> * [x] three\rtext [ ] here\n- [x]');
    // Not a task line, or past the end: nothing changes.
    expect(toggleTask(source, 3, true)).toBe(source);
    expect(toggleTask(source, 9, true)).toBe(source);
    // What the renderer names is what toggleTask rewrites.
    for (const [line] of boxes(renderMarkdown(source, { checkableTasks: true }))) {
      expect(toggleTask(source, line, true)).not.toBe(toggleTask(source, line, false));
    }
  });
});
