import { describe, expect, test } from 'vitest';
import { renderMarkdown } from '../../client/lib/markdown.ts';

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
