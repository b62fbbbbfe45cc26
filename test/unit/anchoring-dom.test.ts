// @vitest-environment jsdom
import { parseHTML } from 'linkedom';
import { describe, expect, test } from 'vitest';
import {
  boundsFromOffsets,
  offsetsFromRange,
  positionAt,
  rangeFromOffsets,
  textIndex,
  textOffsetAt,
} from '../../src/anchoring/dom.ts';
import { anchor, describeRange } from '../../src/anchoring/index.ts';
import { domText } from '../../src/text/dom-text.ts';

function mount(html: string): HTMLElement {
  const root = document.createElement('article');
  root.innerHTML = html;
  document.body.replaceChildren(root);
  return root;
}

const SAMPLES = [
  '<p>Hello <b>bold</b> world.</p><p>Second   paragraph\n with  spaces.</p>',
  '<h1>Title</h1><div>One<br>Two<br><br>Three</div><ul><li>a</li><li> b </li></ul>',
  '<p>before</p><pre>  code line 1\n    indented\n</pre><p>after&nbsp;&nbsp;nbsp</p>',
  '<p>x<script>var hidden = 1;</script>y<style>p{}</style>z</p><template>t</template>',
  '<blockquote><p>東京は大きな都市です。</p></blockquote><p>👩‍💻 e\u0301 <i>em</i>dash</p>',
  '<table><tr><td>cell 1</td><td>cell 2</td></tr></table><figure><img src="x"><figcaption>cap</figcaption></figure>',
  '   <span>inline only</span>   text  ',
];

describe('textIndex', () => {
  test.each(SAMPLES)('builds the same text as the server extraction: %s', (html) => {
    const root = mount(html);
    const server = parseHTML(`<html><body><article>${html}</article></body></html>`).document;
    expect(textIndex(root).text).toBe(domText(server.querySelector('article') as unknown as Node).text);
  });

  test('every character of the text comes from the DOM position it maps to', () => {
    const root = mount(SAMPLES[0]!);
    const index = textIndex(root);
    expect(index.text).toBe('Hello bold world.\n\nSecond paragraph with spaces.');
    const at = positionAt(index, index.text.indexOf('bold'));
    expect(at?.node.data).toBe('bold');
    expect(at?.offset).toBe(0);
    // The paragraph separator has no DOM character; the next real one is returned.
    expect(positionAt(index, index.text.indexOf('\n'))?.node.data.startsWith('Second')).toBe(true);
  });
});

describe('rangeFromOffsets and offsetsFromRange', () => {
  test('a range across inline elements selects exactly the text', () => {
    const root = mount(SAMPLES[0]!);
    const { text } = textIndex(root);
    const start = text.indexOf('lo bold wo');
    const range = rangeFromOffsets(root, start, start + 'lo bold wo'.length);
    expect(range?.toString()).toBe('lo bold wo');
    expect(offsetsFromRange(root, range!)).toEqual({ start, end: start + 10 });
  });

  test('a range across paragraphs round-trips, collapsed whitespace included', () => {
    const root = mount(SAMPLES[0]!);
    const { text } = textIndex(root);
    const start = text.indexOf('world.');
    const end = text.indexOf('with') + 4;
    const range = rangeFromOffsets(root, start, end)!;
    expect(range.toString()).toBe('world.Second   paragraph\n with');
    expect(offsetsFromRange(root, range)).toEqual({ start, end });
  });

  test('element boundary points (as a user selection may give) map to text offsets', () => {
    const root = mount(SAMPLES[1]!);
    const { text } = textIndex(root);
    const list = root.querySelector('ul')!;
    const range = document.createRange();
    range.setStart(list, 0);
    range.setEnd(list, list.childNodes.length);
    const offsets = offsetsFromRange(root, range)!;
    expect(text.slice(offsets.start, offsets.end)).toBe('a\n\nb');
  });

  test('separators only, out-of-root ranges give null', () => {
    const root = mount(SAMPLES[0]!);
    const { text } = textIndex(root);
    const separator = text.indexOf('\n\n');
    expect(rangeFromOffsets(root, separator, separator + 2)).toBeNull();
    const outside = document.createElement('p');
    outside.textContent = 'elsewhere';
    document.body.append(outside);
    const range = document.createRange();
    range.selectNodeContents(outside);
    expect(offsetsFromRange(root, range)).toBeNull();
  });

  test('a highlight made from a selection re-anchors on the re-rendered page', () => {
    const root = mount(SAMPLES[4]!);
    const selection = document.createRange();
    const tokyo = root.querySelector('p')!.firstChild as Text;
    selection.setStart(tokyo, 0);
    selection.setEnd(tokyo, 5);
    const before = textIndex(root);
    const offsets = offsetsFromRange(root, selection, before)!;
    const selectors = describeRange(before.text, offsets.start, offsets.end);
    expect(selectors.quote.exact).toBe('東京は大き');

    const rerendered = mount(`<p>新しい段落。</p>${SAMPLES[4]}`);
    const after = textIndex(rerendered);
    const result = anchor(after.text, selectors);
    if (result.status === 'detached') throw new Error('detached');
    const range = rangeFromOffsets(rerendered, result.start, result.end, after)!;
    expect(range.toString()).toBe('東京は大き');
    expect(range.startContainer.parentElement?.tagName).toBe('P');
  });
});

describe('boundsFromOffsets and textOffsetAt', () => {
  test('the bounds a StaticRange is made from are those of rangeFromOffsets', () => {
    const root = mount(SAMPLES[0]!);
    const index = textIndex(root);
    const start = index.text.indexOf('bold world.');
    const end = index.text.indexOf('paragraph') + 4;
    const bounds = boundsFromOffsets(index, start, end)!;
    const range = rangeFromOffsets(root, start, end, index)!;
    expect(bounds).toEqual({
      startContainer: range.startContainer,
      startOffset: range.startOffset,
      endContainer: range.endContainer,
      endOffset: range.endOffset,
    });
    const separator = index.text.indexOf('\n\n');
    expect(boundsFromOffsets(index, separator, separator + 2)).toBeNull();
  });

  test('a character in the DOM gives its text offset; a collapsed one gives the next kept one', () => {
    const root = mount(SAMPLES[0]!);
    const index = textIndex(root);
    const bold = root.querySelector('b')!.firstChild as Text;
    expect(textOffsetAt(index, bold, 1)).toBe(index.text.indexOf('bold') + 1);
    // "Second   paragraph": the second and third spaces are collapsed away.
    const second = root.querySelectorAll('p')[1]!.firstChild as Text;
    const collapsed = second.data.indexOf('   ') + 1;
    expect(textOffsetAt(index, second, collapsed)).toBe(index.text.indexOf('paragraph'));
    const outside = document.createTextNode('elsewhere');
    expect(textOffsetAt(index, outside, 0)).toBeNull();
  });
});
