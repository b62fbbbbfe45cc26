// The rules that tell page furniture from the article body once Readability has found the body:
// link lists, teasers, labels, credits, datelines and what closes an article.
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../server/domain/clip/extract/index.ts';

const prose = (count: number): string =>
  Array.from(
    { length: count },
    (_, i) =>
      `<p>When the snow melts in the high valleys, the rivers rise quickly and carry cold water, gravel and fallen branches down towards the plains, where farmers watch the banks. Paragraph ${i + 1}.</p>`,
  ).join('');

const textOf = (body: string): string =>
  extractArticle(
    `<html><head><title>Rivers</title></head><body><article>${body}</article></body></html>`,
    'https://news.example.com/story',
  ).text;

describe('extraction: links in the body', () => {
  it('keeps a paragraph that is a single link among prose, and drops a run of them', () => {
    const text = textOf(
      `${prose(3)}<p><a href="/shop/energize">Performance Energize</a></p><h3>Recovery</h3>${prose(2)}` +
        `<p><a href="/a">The first other story</a></p><p><a href="/b">The second other story</a></p>${prose(1)}`,
    );
    expect(text).toContain('Performance Energize');
    expect(text).not.toContain('other story');
  });

  it('drops a single-link teaser of another story, shouted or labelled “See also”', () => {
    const text = textOf(
      `${prose(3)}<p><a href="/x">TAYLOR SWIFT CLEARED TO PERFORM HITS AT AMAs</a></p>${prose(2)}` +
        `<p><a href="/y">See also: the thaw in other valleys</a></p>${prose(2)}`,
    );
    expect(text).not.toMatch(/TAYLOR SWIFT|the thaw in other valleys/);
    expect(text).toContain('Paragraph 2.');
  });

  it('keeps a paragraph whose person’s hover card is all links, and drops only the card', () => {
    const card =
      '<span class="card"><a href="/p/ada">Ada Writer</a><a href="/s/1">Her story on floods</a> <a href="/s/2">Her story on dams</a> <a href="/p/ada">MORE</a></span>';
    const text = textOf(
      `<p>A farmer told <span><a href="/p/ada">Ada Writer</a>${card}</span> that the river rose overnight, and the town closed the bridge.</p>${prose(4)}`,
    );
    expect(text).toContain('that the river rose overnight');
    expect(text).not.toMatch(/Her story on/);
  });
});

describe('extraction: embedded posts', () => {
  it('keeps a post embedded from a social network as a quotation, whatever its wrapper is named', () => {
    const tweet =
      '<div class="social-media-embed"><blockquote class="twitter-tweet"><p>The river is over the bridge again: <a href="https://t.co/x1">https://t.co/x1</a></p>— Ada (@ada) <a href="https://twitter.com/ada/status/1">November 18, 2019</a></blockquote><script src="https://platform.twitter.com/widgets.js"></script></div>';
    const text = textOf(`${prose(3)}${tweet}${prose(3)}`);
    expect(text).toContain('The river is over the bridge again');
    expect(text.match(/Paragraph 3\./g)).toHaveLength(2);
  });
});

describe('extraction: furniture told by its text', () => {
  it('drops labels, picture credits and gallery counters anywhere in the body', () => {
    const text = textOf(
      `${prose(2)}<div>Advert</div><p>Photo: Jane Lens / Agency</p><div>Image 1 of 8</div><p>Фото: личный архив</p>${prose(2)}`,
    );
    expect(text).not.toMatch(/Advert|Jane Lens|Image 1 of 8|личный архив/);
    expect(text.match(/Paragraph 2\./g)).toHaveLength(2);
  });

  it('drops the dateline and reading time that open the body, not a first sentence with a date', () => {
    const text = textOf(`<p>November 20, 2019 - 11:28 AMT</p><p>Tempo de leitura: 2 minutos</p>${prose(4)}`);
    expect(text.startsWith('When the snow melts')).toBe(true);
    const dated = textOf(`<p>On 5 November 2019 the river rose.</p>${prose(4)}`);
    expect(dated.startsWith('On 5 November 2019 the river rose.')).toBe(true);
  });

  it('drops the calls to follow and subscribe and the contributor line that close the body', () => {
    const text = textOf(
      `${prose(4)}<p>Ada Writer contributed reporting from the valley.</p><p>Follow us on Twitter and on Facebook.</p>` +
        '<p>Get the latest updates right in your inbox. Subscribe to our newsletters.</p>',
    );
    expect(text.endsWith('Paragraph 4.')).toBe(true);
  });

  it('keeps a closing paragraph of the article that mentions subscriptions or a copyright', () => {
    const last = 'What kind of products will readers find worth a digital subscription, he asked.';
    expect(textOf(`${prose(4)}<p>${last}</p>`).endsWith(last)).toBe(true);
    const wire = '© 2019 Associated Press. All Rights Reserved.';
    expect(textOf(`${prose(4)}<p>${wire}</p>`).endsWith(wire)).toBe(true);
  });
});
