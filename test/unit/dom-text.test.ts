// @vitest-environment jsdom
// The server stores the text of an article body walked on linkedom (extract/index.ts); the reader
// anchors highlights on the text of the stored HTML walked in the browser. Both must give the same
// text, with each character at the same place in the DOM, or highlights move.
import fc from 'fast-check';
import { parseHTML } from 'linkedom';
import { describe, expect, test } from 'vitest';
import { extractArticle } from '../../server/domain/clip/extract/index.ts';
import { sanitizeArticleHtml } from '../../server/domain/clip/sanitize.ts';
import { textIndex } from '../../src/anchoring/dom.ts';
import { BLOCK_TAGS, SKIPPED_TAGS } from '../../src/text/blocks.ts';
import { type DomText, domText, NO_NODE } from '../../src/text/dom-text.ts';

/**
 * The server's text extraction as it was before the walk was shared with the reader
 * (server/domain/clip/extract/html-to-text.ts), kept as the oracle: stored texts, and the
 * highlights anchored on them, depend on the text never changing.
 */
function storedTextReference(root: Node): string {
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

/** The article root as the server's DOM library builds it. */
function serverArticle(html: string): Node {
  const { document: serverDocument } = parseHTML(`<html><body><article>${html}</article></body></html>`);
  return serverDocument.querySelector('article') as unknown as Node;
}

/** The article root as the reader renders it. */
function readerArticle(html: string): HTMLElement {
  const root = document.createElement('article');
  root.innerHTML = html;
  document.body.replaceChildren(root);
  return root;
}

/** Child indexes from root down to node: the same path names the same node in any DOM. */
function pathOf(root: Node, node: Node): number[] {
  const path: number[] = [];
  for (let at = node; at !== root; at = at.parentNode!) {
    let index = 0;
    for (let sibling = at.previousSibling; sibling; sibling = sibling.previousSibling) index++;
    path.unshift(index);
  }
  return path;
}

/** Per code unit of the text: the path of its Text node and the offset in it, or null. */
function positions(root: Node, page: DomText): ([number[], number] | null)[] {
  return [...page.unitNodes].map((node, unit) =>
    node === NO_NODE ? null : [pathOf(root, page.nodes[node]!), page.unitOffsets[unit]!],
  );
}

/** Each code unit is the DOM character it maps to, or what that whitespace became. */
function expectUnitsFromTheirCharacters(page: DomText): void {
  for (let unit = 0; unit < page.text.length; unit++) {
    const written = page.text[unit]!;
    const node = page.unitNodes[unit]!;
    if (node === NO_NODE) {
      expect(written).toBe('\n');
      continue;
    }
    const source = page.nodes[node]!.data[page.unitOffsets[unit]!]!;
    if (written === ' ') expect(source).toMatch(/\s/);
    else if (written === '\n') expect(source).toMatch(/[\n\u2028]/);
    else expect(written).toBe(source);
  }
}

const FIXTURES: { name: string; html: string; text: string }[] = [
  {
    name: 'paragraphs and inline markup',
    html: '<p>Hello <b>bold</b> world.</p>\n<p>Second   paragraph\n with  <i>spaces</i>.</p>',
    text: 'Hello bold world.\n\nSecond paragraph with spaces.',
  },
  {
    name: 'nested blocks',
    html: '<div>Intro <div><p>inner <em>one</em></p>tail</div><section><h2>Heading</h2><p>body</p></section></div>',
    text: 'Intro\n\ninner one\n\ntail\n\nHeading\n\nbody',
  },
  {
    name: '<br> line breaks, leading, repeated and trailing',
    html: '<p><br>One<br>Two<br><br>Three<br> <br></p><div>a <br> b</div>',
    text: 'One\nTwo\n\nThree\n\na\nb',
  },
  {
    name: '<pre> keeps its line breaks',
    html: '<p>before</p><pre>  code line 1\n    indented\n\n<b>bold</b>\tend\n</pre><p>after</p>',
    text: 'before\n\ncode line 1\n indented\n\nbold end\n\nafter',
  },
  {
    name: 'non-breaking spaces',
    html: '<p>&nbsp;lead&nbsp;&nbsp;two&nbsp; mixed <span>&nbsp;</span>x&nbsp;</p>',
    text: 'lead two mixed x',
  },
  {
    name: 'CJK',
    html: '<blockquote><p>東京は大きな都市です。</p></blockquote><p>中文 <ruby>漢<rt>kan</rt></ruby>字　全角</p>',
    text: '東京は大きな都市です。\n\n中文 漢kan字 全角',
  },
  {
    name: 'right-to-left text',
    html: '<p dir="rtl">שלום <b>עולם</b>.</p><p dir="rtl">مرحبا بالعالم <bdi>abc</bdi> ١٢٣</p>',
    text: 'שלום עולם.\n\nمرحبا بالعالم abc ١٢٣',
  },
  {
    name: 'astral characters and combining marks',
    html: '<p>👩‍💻 e\u0301 <i>em</i>dash 𝒜</p>',
    text: '👩‍💻 e\u0301 emdash 𝒜',
  },
  {
    name: 'script, style, noscript, template and svg are skipped',
    html:
      '<p>x<script>var hidden = 1;</script>y<style>p{}</style>z</p><noscript>no</noscript>' +
      '<template>t</template><p>a<svg viewBox="0 0 1 1"><text>svg text</text></svg>b</p>',
    text: 'xyz\n\nab',
  },
  {
    name: 'lists',
    html: '<ul><li>first</li><li> second <ul><li>nested</li></ul></li></ul><ol><li>one</li></ol><dl><dt>term</dt><dd>def</dd></dl>',
    text: 'first\n\nsecond\n\nnested\n\none\n\nterm\n\ndef',
  },
  {
    name: 'tables',
    html:
      '<table><caption>Cap</caption><thead><tr><th>h1</th><th>h2</th></tr></thead>' +
      '<tbody><tr><td>cell 1</td><td>cell <b>2</b></td></tr>\n<tr><td></td><td> </td></tr></tbody></table>',
    text: 'Cap\n\nh1\n\nh2\n\ncell 1\n\ncell 2',
  },
  {
    name: 'empty blocks and figures',
    html: '<p></p><div> </div><p><img src="x.png" alt="alt text"></p><figure><img src="y"><figcaption>cap</figcaption></figure><hr><p>end</p>',
    text: 'cap\n\nend',
  },
  {
    name: 'whitespace-only text nodes between and inside inline elements',
    html: '\n  <p>\n    <span>a</span>\n    <span>b</span>\n  </p>\n  <p> <b> </b> c <i> </i></p>\n',
    text: 'a b\n\nc',
  },
  {
    name: 'text straight in the root, around blocks',
    html: '   <span>inline only</span>   text  <p>para</p> after ',
    text: 'inline only text\n\npara\n\nafter',
  },
];

describe('domText on the server and textIndex in the reader', () => {
  test.each(FIXTURES)('$name: the same text, the one the server always stored', ({ html, text }) => {
    const server = serverArticle(html);
    const reader = readerArticle(html);
    expect(domText(server).text).toBe(text);
    expect(textIndex(reader).text).toBe(text);
    expect(storedTextReference(server)).toBe(text);
  });

  test.each(FIXTURES)('$name: every offset maps to the same Text node and offset', ({ html }) => {
    // linkedom ends a Text node at each character reference ("a &amp; b" is three nodes), the
    // browser does not; the text is the same either way, so nodes are compared once merged.
    const server = serverArticle(html);
    const reader = readerArticle(html);
    server.normalize();
    reader.normalize();
    const serverText = domText(server);
    const index = textIndex(reader);
    expect(positions(reader, index)).toEqual(positions(server, serverText));
    expectUnitsFromTheirCharacters(serverText);
    expectUnitsFromTheirCharacters(index);
  });

  test.each(FIXTURES)(
    '$name: extraction stores the text the reader builds from the stored HTML',
    ({ html }) => {
      const page = `<!doctype html><html><head><title>Fixture</title></head><body><article>${html}</article></body></html>`;
      const article = extractArticle(page, 'https://example.com/fixture');
      expect(article.text).not.toBe('');
      const reader = readerArticle(sanitizeArticleHtml(article.contentHtml));
      expect(textIndex(reader).text).toBe(article.text);
    },
  );
});

type Tree = string | { tag: string; children: Tree[] };

const TAGS = ['p', 'div', 'li', 'td', 'h1', 'pre', 'span', 'b', 'code', 'br', 'br', 'script', 'style', 'svg'];
const CHARACTERS = [
  'a',
  'b',
  ' ',
  ' ',
  '\n',
  '\t',
  '\r',
  '\f',
  '\v',
  '\u00a0',
  '\u3000',
  '\u2028',
  '\u2029',
  '\u200b',
  '\ufeff',
  '\u0085',
  '東',
  'ש',
  '\ud83d\ude00',
  '\ud83d',
];

const trees = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 8 }).map((characters) => characters.join('')),
    fc.record({ tag: fc.constantFrom(...TAGS), children: fc.array(tie('node'), { maxLength: 4 }) }),
  ),
})).node;

/** Builds the tree with DOM calls, not the parser, so any nesting and any text can be tried. */
function build(owner: Document, tree: Tree): Node {
  if (typeof tree === 'string') return owner.createTextNode(tree);
  const element =
    tree.tag === 'svg'
      ? owner.createElementNS('http://www.w3.org/2000/svg', 'svg')
      : owner.createElement(tree.tag);
  for (const child of tree.children) element.append(build(owner, child));
  return element;
}

describe('domText on any tree', () => {
  const { document: serverDocument } = parseHTML('<html><body></body></html>');

  test('gives the stored text, the same map in linkedom and in the browser, and the same text once Text nodes are merged', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('article', 'pre', 'p', 'span'),
        fc.array(trees, { maxLength: 6 }),
        (rootTag, children) => {
          const server = serverDocument.createElement(rootTag) as unknown as Node;
          const reader = document.createElement(rootTag);
          for (const child of children) {
            server.appendChild(build(serverDocument as unknown as Document, child));
            reader.append(build(document, child));
          }
          const serverText = domText(server);
          const index = textIndex(reader);
          expect(serverText.text).toBe(storedTextReference(server));
          expect(index.text).toBe(serverText.text);
          expect(positions(reader, index)).toEqual(positions(server, serverText));
          expectUnitsFromTheirCharacters(index);
          reader.normalize();
          expect(textIndex(reader).text).toBe(serverText.text);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('a text longer than the first buffer comes out whole', () => {
    const paragraph =
      '<p>Paragraph with <b>bold</b>,   spaces<br>and 東京は大きな都市です。</p><pre> a\n\tb </pre>';
    const html = paragraph.repeat(400);
    const server = serverArticle(html);
    const serverText = domText(server);
    expect(serverText.text.length).toBeGreaterThan(20_000);
    expect(serverText.text).toBe(storedTextReference(server));
    expect(textIndex(readerArticle(html)).text).toBe(serverText.text);
  });
});
