// Users paste the seed product's Nunjucks templates. Inside `{{ }}` and `{% %}` only, this turns
// the Nunjucks spellings LiquidJS does not know into Liquid:
//   `| name(args)`        → `| name: args`   (an object argument `({a: 1, b: 2})` becomes the
//                                             keyword arguments `a: 1, b: 2`; `| name()` → `| name`)
//   `{% elif %}`, `{% elseif %}` → `{% elsif %}`
//   `{% set x = v %}` → `{% assign x = v %}`; `{% set x %}…{% endset %}` → `{% capture x %}…{% endcapture %}`
//   `loop.index` etc.  → `forloop.index`
// No rewrite adds or removes a newline, so LiquidJS's error lines are the lines the user wrote.

const TAG_RENAMES: Record<string, string> = { elif: 'elsif', elseif: 'elsif', endset: 'endcapture' };

export function fromNunjucks(source: string): string {
  let out = '';
  let from = 0;
  const openers = /\{\{|\{%/g;
  for (let open = openers.exec(source); open; open = openers.exec(source)) {
    const isTag = open[0] === '{%';
    const start = open.index + 2;
    const end = closingDelimiter(source, start, isTag ? '%}' : '}}');
    if (end < 0) break;
    const inner = source.slice(start, end);
    out += source.slice(from, start) + (isTag ? rewriteTag(inner) : rewriteExpression(inner));
    from = end;
    openers.lastIndex = end;
    if (isTag && /^-?\s*raw\b/.test(inner)) {
      // A raw block's body is the user's literal text.
      const endRaw = /\{%-?\s*endraw\b/g;
      endRaw.lastIndex = end;
      const match = endRaw.exec(source);
      if (!match) break;
      openers.lastIndex = match.index;
    }
  }
  return out + source.slice(from);
}

/** The index of `close` after `start`, skipping quoted strings; -1 when it never closes. */
function closingDelimiter(source: string, start: number, close: string): number {
  for (let i = start; i < source.length; i++) {
    const c = source[i]!;
    if (c === '"' || c === "'") i = stringEnd(source, i);
    else if (source.startsWith(close, i)) return i;
  }
  return -1;
}

/** The index of the quote that closes the string opening at `start` (or the text's end). */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

function rewriteTag(inner: string): string {
  const match = /^(-?\s*)([A-Za-z_]\w*)/.exec(inner);
  if (!match) return rewriteExpression(inner);
  const [head, lead, name] = match as unknown as [string, string, string];
  let rest = inner.slice(head.length);
  let renamed = TAG_RENAMES[name] ?? name;
  if (name === 'set') {
    // `set x = v` assigns; a bare `set x` opens a block, as `capture` does.
    renamed = /^\s*[\w.]+\s*=(?!=)/.test(rest) ? 'assign' : 'capture';
  }
  rest = rewriteExpression(rest);
  return lead + renamed + rest;
}

/** Rewrites the filter calls and `loop.` references of one `{{ }}` or tag body. */
function rewriteExpression(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const end = stringEnd(text, i);
      out += text.slice(i, end + 1);
      i = end;
      continue;
    }
    if (c === '|') {
      const call = /^\|(\s*)([A-Za-z_]\w*)(\s*)\(/.exec(text.slice(i));
      const close = call ? matchingParen(text, i + call[0].length - 1) : -1;
      if (call && close > 0) {
        const args = text.slice(i + call[0].length, close);
        const [, space, name, gap] = call as unknown as [string, string, string, string];
        out += `|${space}${name}${gap}${args.trim() ? ':' : ' '}${rewriteExpression(objectToKeywords(args))} `;
        i = close;
        continue;
      }
    }
    if (c === 'l' && /^loop\./.test(text.slice(i, i + 5)) && !/[\w.]/.test(text[i - 1] ?? '')) {
      out += 'forloop.';
      i += 4;
      continue;
    }
    out += c;
  }
  return out;
}

/** The index of the `)` closing the `(` at `open`, skipping strings and nested parentheses. */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") i = stringEnd(text, i);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** `{a: 1, b: 2}` → ` a: 1, b: 2 ` (same length); anything else unchanged. */
function objectToKeywords(args: string): string {
  const match = /^(\s*)\{([\s\S]*)\}(\s*)$/.exec(args);
  return match ? `${match[1]} ${match[2]} ${match[3]}` : args;
}
