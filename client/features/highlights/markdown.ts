// A deliberately small Markdown subset for annotations, safe by construction: all text is
// HTML-escaped first, and only these constructs become markup: paragraphs, line breaks, "- " and
// "1. " lists, **bold**, *italic* / _italic_, `code`, [links](https://…) and formulas (rendered by
// the caller's renderMath, which must return safe HTML).

export interface MathPiece {
  tex: string;
  display: boolean;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** Placeholder for the n-th formula; private-use characters never appear in typed Markdown. */
const token = (n: number) => `\uE000${n}\uE001`;
const TOKEN = /\uE000(\d+)\uE001/g;

/** Swaps formulas for placeholders, in order, using the formula list the math rules found. */
function protectMath(markdown: string, pieces: readonly MathPiece[]): string {
  let out = '';
  let from = 0;
  pieces.forEach((piece, n) => {
    const fence = piece.display ? '$$' : '$';
    const source = `${fence}${piece.tex}${fence}`;
    const at = markdown.indexOf(source, from);
    if (at < 0) return;
    out += markdown.slice(from, at) + token(n);
    from = at + source.length;
  });
  return out + markdown.slice(from);
}

function inline(text: string): string {
  const codes: string[] = [];
  let html = escapeHtml(text).replace(/`([^`\n]+)`/g, (_, code: string) => {
    codes.push(`<code>${code}</code>`);
    return `\uE002${codes.length - 1}\uE003`;
  });
  html = html
    .replace(
      /\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g,
      (_, label: string, href: string) =>
        `<a href="${href}" target="_blank" rel="noopener noreferrer">${label}</a>`,
    )
    .replace(/\*\*(?=\S)([^*]+?)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*\w])\*(?=\S)([^*\n]+?)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_(?=\S)([^_\n]+?)_(?!\w)/g, '$1<em>$2</em>')
    .replace(/\n/g, '<br>');
  return html.replace(/\uE002(\d+)\uE003/g, (_, n: string) => codes[Number(n)] ?? '');
}

const BULLET = /^\s*[-*+]\s+/;
const NUMBERED = /^\s*\d+[.)]\s+/;

function block(lines: string[]): string {
  if (lines.every((line) => BULLET.test(line)))
    return `<ul>${lines.map((line) => `<li>${inline(line.replace(BULLET, ''))}</li>`).join('')}</ul>`;
  if (lines.every((line) => NUMBERED.test(line)))
    return `<ol>${lines.map((line) => `<li>${inline(line.replace(NUMBERED, ''))}</li>`).join('')}</ol>`;
  return `<p>${inline(lines.join('\n'))}</p>`;
}

/** Safe HTML for an annotation. `renderMath` gets each formula listed in `math`, in order. */
export function markdownToHtml(
  markdown: string,
  math: readonly MathPiece[] = [],
  renderMath: (piece: MathPiece) => string = (piece) => escapeHtml(piece.tex),
): string {
  const protectedText = protectMath(markdown.replace(/\r\n?/g, '\n'), math);
  const html = protectedText
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.split('\n').filter((line) => line.trim()))
    .filter((lines) => lines.length)
    .map(block)
    .join('');
  return html.replace(TOKEN, (_, n: string) => {
    const piece = math[Number(n)];
    return piece ? renderMath(piece) : '';
  });
}
