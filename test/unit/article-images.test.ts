import { JSDOM } from 'jsdom';
import { describe, expect, test } from 'vitest';
import { renderMarkdown } from '../../client/lib/markdown.ts';
import { sanitizeArticleHtml } from '../../server/domain/clip/sanitize.ts';
import {
  articleImageSources,
  type ImageOutcome,
  readerArticleHtml,
} from '../../server/domain/images/article-images.ts';
import { imageFacts, sniffImageType } from '../../server/domain/images/sniff.ts';
import { domText } from '../../src/text/dom-text.ts';
import { gifImage, jpegImage, pngImage, webpImage } from '../helpers/images.ts';

// What the image job fetches and what the reader shows, read from the sanitised article HTML.

const stored = (src: string, width = 10, height = 5): ImageOutcome => ({ src, width, height });

describe('article image addresses', () => {
  test('src first, else the largest srcset candidate; http(s) only, each once, in reading order', () => {
    const html = sanitizeArticleHtml(`<p><img src="https://a.example/1.png?x=1&amp;y=2" alt="one"></p>
      <p><img srcset="https://a.example/small.png 320w, https://a.example/large.png 1280w" alt="two"></p>
      <p><img src="data:image/png;base64,iVBORw0KGgo=" alt="inline"><img src="https://a.example/1.png?x=1&amp;y=2"></p>
      <p><img src="javascript:alert(1)"><img src="ftp://a.example/x.png"></p>`);
    expect(articleImageSources(html)).toEqual([
      'https://a.example/1.png?x=1&y=2',
      'https://a.example/large.png',
    ]);
  });
});

describe('the reader’s article', () => {
  test('a stored image is Margin’s copy with its size, lazy, and its source; srcset, sizes and <source> go', () => {
    const html = sanitizeArticleHtml(`<picture><source srcset="https://a.example/p.webp" type="image/webp">
      <img src="https://a.example/p.jpg" srcset="https://a.example/p2.jpg 2x" sizes="50vw" width="999" height="1" alt="A &quot;quoted&quot; &amp; <odd> alt" title="t"></picture>`);
    const out = readerArticleHtml(html, (source) =>
      source === 'https://a.example/p.jpg' ? stored('/files/images/abc.jpg', 240, 160) : undefined,
    );
    expect(out).not.toMatch(/srcset|sizes|<source|999/);
    const img = new JSDOM(out).window.document.querySelector('img') as HTMLImageElement;
    expect(Object.fromEntries([...img.attributes].map((a) => [a.name, a.value]))).toEqual({
      src: '/files/images/abc.jpg',
      alt: 'A "quoted" & <odd> alt',
      title: 't',
      width: '240',
      height: '160',
      loading: 'lazy',
      decoding: 'async',
      'data-source': 'https://a.example/p.jpg',
    });
  });

  test('an image not stored is a placeholder that adds no text; an empty alt is hidden from assistive tech', () => {
    const html = sanitizeArticleHtml(
      '<p>Before <img src="https://a.example/x.png" alt="Gone away"> after <img src="https://a.example/y.png" alt=""></p>',
    );
    const out = readerArticleHtml(html, (source) => (source.endsWith('x.png') ? 'refused' : undefined));
    expect(out).toBe(
      '<p>Before <span class="reader-image-missing" data-state="refused" role="img" aria-label="Gone away" data-alt="Gone away"></span> after <span class="reader-image-missing" data-state="pending" aria-hidden="true"></span></p>',
    );
    const text = (h: string) => domText(new JSDOM(`<body>${h}</body>`).window.document.body).text;
    expect(text(out)).toBe(text(html));
  });

  test('a pending image whose page declared its size is an empty picture of that size and proportions', () => {
    const html =
      sanitizeArticleHtml(`<p>Before <img src="https://a.example/chart.png" alt="A chart" width="640" height="360">
      <img src="https://a.example/deco.png" alt="" width="40" height="30">
      <img src="https://a.example/wide.png" alt="Wide" width="100%" height="30">
      <img src="https://a.example/flat.png" alt="Flat" width="640" height="0">
      <img src="https://a.example/tall.png" alt="Tall" height="360">
      <img src="https://a.example/gone.png" alt="Gone" width="640" height="360"> after</p>`);
    const out = readerArticleHtml(html, (source) => (source.endsWith('gone.png') ? 'refused' : undefined));
    const blank = (w: number, h: number) =>
      `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 ${w} ${h}'%3E%3C/svg%3E`;
    const shown = [...new JSDOM(out).window.document.querySelectorAll('.reader-image-missing')].map(
      (element) => [
        element.tagName,
        ...element.getAttributeNames().map((n) => `${n}=${element.getAttribute(n)}`),
      ],
    );
    expect(shown).toEqual([
      [
        'IMG',
        'class=reader-image-missing',
        'data-state=pending',
        `src=${blank(640, 360)}`,
        'alt=A chart',
        'aria-label=A chart',
        'width=640',
        'height=360',
      ],
      [
        'IMG',
        'class=reader-image-missing',
        'data-state=pending',
        `src=${blank(40, 30)}`,
        'alt=',
        'width=40',
        'height=30',
      ],
      // No size, or not both in pixels: the box of its alt text.
      [
        'SPAN',
        'class=reader-image-missing',
        'data-state=pending',
        'role=img',
        'aria-label=Wide',
        'data-alt=Wide',
      ],
      [
        'SPAN',
        'class=reader-image-missing',
        'data-state=pending',
        'role=img',
        'aria-label=Flat',
        'data-alt=Flat',
      ],
      [
        'SPAN',
        'class=reader-image-missing',
        'data-state=pending',
        'role=img',
        'aria-label=Tall',
        'data-alt=Tall',
      ],
      // A refused image will not arrive: its alt text, whatever its size.
      [
        'SPAN',
        'class=reader-image-missing',
        'data-state=refused',
        'role=img',
        'aria-label=Gone',
        'data-alt=Gone',
      ],
    ]);
    const svg = new JSDOM(decodeURIComponent(blank(640, 360).slice('data:image/svg+xml,'.length)), {
      contentType: 'image/svg+xml',
    }).window.document.documentElement;
    expect([svg.tagName, svg.getAttribute('viewBox'), svg.getAttribute('width')]).toEqual([
      'svg',
      '0 0 640 360',
      null,
    ]);
    const text = (h: string) => domText(new JSDOM(`<body>${h}</body>`).window.document.body).text;
    expect(text(out)).toBe(text(html));
  });

  test('inline images stay; posters and background attributes (pictures from elsewhere) go; media sources stay', () => {
    const html =
      sanitizeArticleHtml(`<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot" width="4" height="4">
      <table background="https://a.example/bg.png"><tbody><tr><td background="https://a.example/td.png">cell</td></tr></tbody></table>
      <video poster="https://a.example/poster.jpg" controls=""><source src="https://a.example/v.mp4" type="video/mp4"></video>`);
    const out = readerArticleHtml(html, () => undefined);
    expect(out).toContain(
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot" width="4" height="4" loading="lazy" decoding="async">',
    );
    expect(out).not.toMatch(/background=|poster=/);
    expect(out).toContain('<td>cell</td>');
    expect(out).toContain('<source src="https://a.example/v.mp4" type="video/mp4">');
  });

  test('text that looks like a tag is not a tag', () => {
    const html = sanitizeArticleHtml(
      '<p>Write &lt;img src="https://a.example/x.png"&gt; to show a picture</p>',
    );
    expect(articleImageSources(html)).toEqual([]);
    expect(readerArticleHtml(html, () => 'refused')).toBe(html);
  });
});

describe('image bytes', () => {
  test('PNG, JPEG, GIF and WebP are known by their magic numbers and measured', () => {
    expect(imageFacts(pngImage(30, 20))).toEqual({ type: 'image/png', width: 30, height: 20 });
    expect(imageFacts(jpegImage())).toEqual({ type: 'image/jpeg', width: 240, height: 160 });
    expect(imageFacts(gifImage(7, 3))).toEqual({ type: 'image/gif', width: 7, height: 3 });
    expect(imageFacts(webpImage())).toEqual({ type: 'image/webp', width: 200, height: 120 });
  });

  test('HTML, SVG, a truncated header or nothing at all are no images', () => {
    expect(sniffImageType(Buffer.from('<!doctype html><p>hi</p>'))).toBeNull();
    expect(
      imageFacts(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>')),
    ).toBeNull();
    expect(imageFacts(pngImage(30, 20).subarray(0, 12))).toBeNull();
    expect(imageFacts(Buffer.alloc(0))).toBeNull();
  });
});

describe('a daily note’s Markdown', () => {
  test('a picture from elsewhere is a link to it; one of Margin’s own is shown', () => {
    expect(renderMarkdown('![A chart](https://charts.example/c.png)')).toContain(
      '<a href="https://charts.example/c.png" target="_blank" rel="noopener noreferrer">A chart</a>',
    );
    expect(renderMarkdown('![](/files/images/abc.png)')).toContain(
      '<img src="/files/images/abc.png" alt="" loading="lazy">',
    );
  });
});
