// Loaded on demand (it brings KaTeX and its stylesheet): annotations as HTML with typeset math.
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { mathSegments } from '../../../src/rules/math.ts';
import { escapeHtml, markdownToHtml } from './markdown.ts';

export function annotationHtml(markdown: string): string {
  return markdownToHtml(markdown, mathSegments(markdown), ({ tex, display }) => {
    try {
      return katex.renderToString(tex, {
        displayMode: display,
        throwOnError: true,
        strict: 'ignore',
        trust: false,
      });
    } catch {
      return `<code class="math-error">${escapeHtml(tex)}</code>`;
    }
  });
}
