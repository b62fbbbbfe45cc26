import katex from 'katex';
import { mathSegments } from '../../src/rules/math.ts';
import { escapeHtml } from './escape-html.ts';
import { TASK } from './task-lines.ts';
import '../styles/task-list.css';

/**
 * A small, safe Markdown renderer for daily notes and annotations. All text is HTML-escaped before any markup is
 * added, and links keep only http(s), mailto and same-site paths, so the output is safe to set
 * as innerHTML. Supported: paragraphs, ATX headings, **bold**, *italic*, `code`, fenced code,
 * [links](url), images, - / 1. lists with - [ ] / - [x] tasks, > blockquotes, --- rules, and
 * $…$ / $$…$$ math (KaTeX). Blocks get dir="auto" so a Latin note reads left to right in an RTL
 * interface and vice versa. A task's checkbox names its source line (data-task-line), which
 * `toggleTask` (task-lines.ts) rewrites.
 */

// Private-use characters mark stashed fragments (code, math); they are removed from the input.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const STASH_PATTERN = /\uE000(\d+)\uE001/g;

/** The URL when it is safe to link to, else null. Input is already HTML-escaped. */
function safeUrl(escapedUrl: string): string | null {
  const url = escapedUrl.trim();
  if (/^(https?:|mailto:)/i.test(url)) return url;
  if (url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\')) return url;
  if (url.startsWith('#')) return url;
  return null;
}

class Stash {
  private readonly parts: string[] = [];
  put(html: string): string {
    this.parts.push(html);
    return `${OPEN}${this.parts.length - 1}${CLOSE}`;
  }
  restore(html: string): string {
    // Stashed pieces may hold further stash marks (a link label with code in it).
    let out = html;
    for (let i = 0; i < 3 && out.includes(OPEN); i++) {
      out = out.replace(STASH_PATTERN, (_, n: string) => this.parts[Number(n)] ?? '');
    }
    return out;
  }
}

function renderMath(tex: string, display: boolean): string {
  try {
    return katex.renderToString(tex, {
      displayMode: display,
      throwOnError: false,
      strict: 'ignore',
      trust: false,
    });
  } catch {
    return `<code>${escapeHtml(tex)}</code>`;
  }
}

/** Replaces the math segments (in the order mathSegments finds them) with stash marks. */
function stashMath(text: string, stash: Stash): string {
  let out = '';
  let from = 0;
  for (const segment of mathSegments(text)) {
    const source = segment.display ? `$$${segment.tex}$$` : `$${segment.tex}$`;
    const at = text.indexOf(source, from);
    if (at < 0) continue;
    out += text.slice(from, at) + stash.put(renderMath(segment.tex, segment.display));
    from = at + source.length;
  }
  return out + text.slice(from);
}

function inline(text: string, stash: Stash): string {
  let html = text.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_, __, code: string) =>
    stash.put(`<code>${escapeHtml(code.trim())}</code>`),
  );
  html = stashMath(html, stash);
  html = escapeHtml(html);
  html = html.replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (whole, alt: string, url: string) => {
    const href = safeUrl(url);
    if (!href || href.startsWith('mailto:')) return whole;
    // Pictures load only from Margin itself (the app's img-src): one elsewhere is a link to it.
    if (/^https?:/i.test(href))
      return stash.put(`<a href="${href}" target="_blank" rel="noopener noreferrer">${alt || href}</a>`);
    return stash.put(`<img src="${href}" alt="${alt}" loading="lazy">`);
  });
  html = html.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label: string, url: string) => {
    const href = safeUrl(url);
    if (!href) return whole;
    const external = /^https?:/i.test(href);
    const attrs = external ? ' target="_blank" rel="noopener noreferrer"' : '';
    return stash.put(`<a href="${href}"${attrs}>${label}</a>`);
  });
  html = html
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '<strong>$2</strong>')
    .replace(/(?<![\w*])\*(?=\S)([^*]*?\S)\*(?!\*)/g, '<em>$1</em>')
    .replace(/(?<![\w_])_(?=\S)([^_]*?\S)_(?![\w_])/g, '<em>$1</em>');
  // A note's line breaks are kept, as people type them.
  return html.replace(/(?: {2,}|\\)?\n/g, '<br>\n');
}

const FENCE = /^(`{3,}|~{3,})/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^(?:-{3,}|\*{3,}|_{3,})\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+/;
const ORDERED = /^\s{0,3}(\d{1,9})[.)]\s+/;
const QUOTE = /^\s{0,3}>\s?/;

export interface MarkdownOptions {
  /** Task checkboxes the user may tick (a daily note's preview); otherwise they are disabled. */
  checkableTasks?: boolean;
}

/** A list item's HTML: a task as a labelled checkbox naming its source line, else its text. */
function listItem(item: string, line: number, stash: Stash, options: MarkdownOptions): string {
  const task = TASK.exec(item);
  if (!task) return `<li dir="auto">${inline(item, stash)}</li>`;
  const checked = task[1] === ' ' ? '' : ' checked';
  const disabled = options.checkableTasks ? '' : ' disabled';
  const box = `<input type="checkbox" class="task-check" data-task-line="${line}"${checked}${disabled}>`;
  const label = inline(item.slice(task[0].length), stash);
  return `<li class="task-item" dir="auto"><label>${box} <span>${label}</span></label></li>`;
}

/** `lines` with, in `at`, the source line each came from. */
function blocks(lines: string[], at: number[], stash: Stash, options: MarkdownOptions): string {
  const out: string[] = [];
  let i = 0;
  const isBlank = (line: string | undefined) => line === undefined || line.trim() === '';
  while (i < lines.length) {
    const line = lines[i] as string;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      const code: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] as string).startsWith(marker)) code.push(lines[i++] as string);
      i++;
      out.push(stash.put(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = (heading[1] as string).length;
      out.push(`<h${level} dir="auto">${inline(heading[2] as string, stash)}</h${level}>`);
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      const quotedAt: number[] = [];
      while (i < lines.length && QUOTE.test(lines[i] as string)) {
        quotedAt.push(at[i] as number);
        quoted.push((lines[i++] as string).replace(QUOTE, ''));
      }
      out.push(`<blockquote dir="auto">${blocks(quoted, quotedAt, stash, options)}</blockquote>`);
      continue;
    }
    const ordered = ORDERED.exec(line);
    if (ordered || BULLET.test(line)) {
      const marker = ordered ? ORDERED : BULLET;
      const items: string[] = [];
      while (i < lines.length && marker.test(lines[i] as string)) {
        const itemLine = at[i] as number;
        let item = (lines[i++] as string).replace(marker, '');
        // Indented continuation lines belong to the item.
        while (i < lines.length && /^\s{2,}\S/.test(lines[i] as string) && !marker.test(lines[i] as string)) {
          item += `\n${(lines[i++] as string).trim()}`;
        }
        items.push(listItem(item, itemLine, stash, options));
      }
      const start = ordered && ordered[1] !== '1' ? ` start="${Number(ordered[1])}"` : '';
      const tasks = items.some((item) => item.startsWith('<li class="task-item"'))
        ? ' class="task-list"'
        : '';
      out.push(ordered ? `<ol${start}${tasks}>${items.join('')}</ol>` : `<ul${tasks}>${items.join('')}</ul>`);
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      !isBlank(lines[i]) &&
      !FENCE.test(lines[i] as string) &&
      !HEADING.test(lines[i] as string) &&
      !QUOTE.test(lines[i] as string) &&
      !(paragraph.length > 0 && (BULLET.test(lines[i] as string) || ORDERED.test(lines[i] as string)))
    ) {
      paragraph.push(lines[i++] as string);
    }
    out.push(`<p dir="auto">${inline(paragraph.join('\n'), stash)}</p>`);
  }
  return out.join('\n');
}

/** Markdown to safe HTML. */
export function renderMarkdown(markdown: string, options: MarkdownOptions = {}): string {
  const stash = new Stash();
  const clean = markdown.replace(/[\uE000\uE001]/g, '').replace(/\r\n?/g, '\n');
  // Display math may span lines and blank lines: stash it before splitting into blocks.
  const { lines, at } = stashDisplayMath(clean, stash);
  return stash.restore(blocks(lines, at, stash, options));
}

const DISPLAY_MATH = /(?<!\\)\$\$([\s\S]+?)(?<!\\)\$\$/g;

/**
 * `$$…$$` spanning lines (outside fenced code) becomes its own block. Answers the lines and, for
 * each, the source line it came from (the math's block stands on the line where it starts).
 */
function stashDisplayMath(text: string, stash: Stash): { lines: string[]; at: number[] } {
  let out = '';
  const at = [0];
  let line = 0;
  const keep = (chunk: string) => {
    out += chunk;
    for (let n = chunk.indexOf('\n'); n >= 0; n = chunk.indexOf('\n', n + 1)) at.push(++line);
  };
  const parts = text.split(/(^(?:`{3,}|~{3,})[^\n]*\n[\s\S]*?^(?:`{3,}|~{3,})\s*$)/m);
  parts.forEach((part, index) => {
    if (index % 2 === 1) {
      keep(part);
      return;
    }
    let from = 0;
    for (const match of part.matchAll(DISPLAY_MATH)) {
      const tex = match[1] as string;
      if (!tex.includes('\n')) continue;
      keep(part.slice(from, match.index));
      out += `\n\n${stash.put(renderMath(tex, true))}\n\n`;
      at.push(line, line, line, line + tex.split('\n').length - 1);
      line = at.at(-1) as number;
      from = match.index + match[0].length;
    }
    keep(part.slice(from));
  });
  return { lines: out.split('\n'), at };
}
