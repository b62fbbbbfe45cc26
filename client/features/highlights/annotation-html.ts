// Loaded on demand (it brings KaTeX and its stylesheet): annotations as HTML with typeset math.
import 'katex/dist/katex.min.css';

export { renderMarkdown as annotationHtml } from '../../lib/markdown.ts';
