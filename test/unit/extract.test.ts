import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeHtml } from '../../server/domain/clip/decode.ts';
import { extractArticle } from '../../server/domain/clip/extract/index.ts';

const CORPUS = new URL('../corpus/extraction-dev/', import.meta.url);
type GroundTruth = Record<string, { articleBody: string; url: string }>;

const paragraphs = (count: number, words: string): string =>
  Array.from(
    { length: count },
    (_, i) => `<p>${words} Paragraph number ${i + 1} of the story, told plainly.</p>`,
  ).join('');

const ARTICLE_PAGE = `<!doctype html><html lang="en-GB"><head>
<title>Ignored title | Site</title>
<meta property="og:title" content="Rivers in Spring">
<meta property="og:site_name" content="The Daily Test">
<meta property="og:image" content="/images/lead.jpg">
<meta name="description" content="How rivers swell when snow melts.">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
 "headline":"Rivers in Spring","datePublished":"2024-03-05T10:00:00Z","author":{"@type":"Person","name":"Ada Writer"}}</script>
</head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>
<article><h1>Rivers in Spring</h1>
<div class="article-body">
${paragraphs(6, 'When the snow melts in the high valleys, the rivers rise quickly and carry cold water, gravel and fallen branches down towards the plains, where farmers watch the banks closely.')}
<figure><img src="../img/river.jpg" alt="A river"><figcaption>The river in April. Credit: Someone</figcaption></figure>
<p>Read the <a href="/guide">full guide</a> for more on what the thaw brings to towns along the way.</p>
<ul class="related-stories"><li><a href="/a">Another story</a></li><li><a href="/b">Yet another story</a></li></ul>
</div></article>
<footer><p>Copyright The Daily Test. All rights reserved. Contact us at the address below.</p></footer>
</body></html>`;

describe('extractArticle', () => {
  const article = extractArticle(ARTICLE_PAGE, 'https://news.example.com/2024/rivers/spring.html');

  it('reads title, site, author, date, lead image and language from the page metadata', () => {
    expect(article.title).toBe('Rivers in Spring');
    expect(article.siteName).toBe('The Daily Test');
    expect(article.author).toBe('Ada Writer');
    expect(article.publishedAt?.toISOString()).toBe('2024-03-05T10:00:00.000Z');
    expect(article.leadImageUrl).toBe('https://news.example.com/images/lead.jpg');
    expect(article.lang).toBe('en-GB');
    expect(article.excerpt).toBe('How rivers swell when snow melts.');
  });

  it('takes the article’s first picture as the lead image when the metadata names none', () => {
    const page = ARTICLE_PAGE.replace('<meta property="og:image" content="/images/lead.jpg">', '').replace(
      '<figure>',
      '<p><img src="/icons/share.png" width="16" height="16" alt=""></p><figure>',
    );
    const url = 'https://news.example.com/2024/rivers/spring.html';
    expect(extractArticle(page, url).leadImageUrl).toBe('https://news.example.com/2024/img/river.jpg');
    expect(extractArticle(page.replace(/<figure>.*?<\/figure>/s, ''), url).leadImageUrl).toBeNull();
  });

  it('returns the body as paragraphs, without navigation, captions, related links or footer', () => {
    expect(article.text).toContain('Paragraph number 1 of the story');
    expect(article.text).toContain('Paragraph number 6 of the story');
    expect(article.text).toContain('Read the full guide for more');
    expect(article.text).not.toMatch(/Home|Sport|The river in April|Another story|Copyright/);
    expect(article.text.split('\n\n').length).toBeGreaterThanOrEqual(7);
  });

  it('leaves out the headline that opens the body, since the title is stored apart', () => {
    const page = `<html><head><title>Rivers in Spring | The Daily Test</title></head><body><article>
<h3>Rivers in  spring</h3>${paragraphs(6, 'When the snow melts in the high valleys, the rivers rise quickly, and farmers watch.')}
</article></body></html>`;
    const { title, text } = extractArticle(page, 'https://news.example.com/');
    expect(title).toBe('Rivers in Spring | The Daily Test');
    expect(text.startsWith('When the snow melts')).toBe(true);
  });

  it('leaves out a list of articles inside an article (related stories), even with the body’s own look', () => {
    const teaser = (n: number): string =>
      `<article class="post"><p>Teaser ${n}: ${'another story, one the reader did not open, told at length, with commas, here. '.repeat(4)}</p></article>`;
    const page = `<html><head><title>Rivers</title></head><body><div id="main">
<article class="post">${paragraphs(6, 'When the snow melts in the high valleys, the rivers rise quickly, and farmers watch.')}</article>
<article class="post"><h3>You may also like</h3>${teaser(1)}${teaser(2)}${teaser(3)}</article>
</div></body></html>`;
    const { text } = extractArticle(page, 'https://news.example.com/');
    expect(text).toContain('Paragraph number 6 of the story');
    expect(text).not.toContain('another story');
  });

  it('keeps to the page’s <article> when it holds the text, leaving out what Readability would join to it', () => {
    const page = `<html><head><title>Rivers</title></head><body><div id="wrap">
<article>${paragraphs(6, 'When the snow melts in the high valleys, the rivers rise quickly, and farmers watch.')}</article>
<div>${paragraphs(3, 'Elsewhere on the site, in other news, a long digest of other matters, told at length.')}</div>
</div></body></html>`;
    const { text } = extractArticle(page, 'https://news.example.com/');
    expect(text).toContain('Paragraph number 6 of the story');
    expect(text).not.toContain('Elsewhere on the site');
  });

  it('makes relative URLs in the body absolute', () => {
    expect(article.contentHtml).toContain('src="https://news.example.com/2024/img/river.jpg"');
    expect(article.contentHtml).toContain('href="https://news.example.com/guide"');
  });

  it('counts words in the body text', () => {
    expect(article.wordCount).toBe(article.text.split(/\s+/).filter((word) => /\w/.test(word)).length);
  });

  it('falls back to the body text for the excerpt and keeps it within 300 characters', () => {
    const page = ARTICLE_PAGE.replace(/<meta name="description"[^>]*>/, '');
    const { excerpt } = extractArticle(page, 'https://news.example.com/');
    expect(excerpt.length).toBeLessThanOrEqual(300);
    expect(excerpt.startsWith('When the snow melts')).toBe(true);
  });

  it('counts CJK characters as words', () => {
    const sentence = '春天来了，河水上涨，农民们在河岸边仔细观察水位的变化。';
    const page = `<html lang="zh"><body><article>${`<p>${sentence}</p>`.repeat(8)}</article></body></html>`;
    const result = extractArticle(page, 'https://example.cn/a');
    expect(result.text).toContain(sentence);
    expect(result.wordCount).toBe(8 * (sentence.length - 3));
  });

  it('returns an empty body for a page without an article', () => {
    const result = extractArticle('<html><body></body></html>', 'https://example.com/');
    expect(result.text).toBe('');
    expect(result.wordCount).toBe(0);
  });
});

describe('extractArticle on the development corpus', () => {
  const groundTruth = JSON.parse(readFileSync(new URL('ground-truth.json', CORPUS), 'utf8')) as GroundTruth;
  const ids = Object.keys(groundTruth).sort().slice(0, 4);
  const words = (text: string): string => (text.match(/\w+/gu) ?? []).join(' ');

  it.each(ids)('extracts page %s starting at its first sentence and covering most of its body', (id) => {
    const truth = groundTruth[id]!;
    const html = decodeHtml(gunzipSync(readFileSync(new URL(`html/${id}.html.gz`, CORPUS))), null);
    const extracted = words(extractArticle(html, truth.url).text);
    const firstSentence = truth.articleBody
      .split(/(?<=[.!?])\s+/)
      .find((s) => words(s).split(' ').length > 3);
    expect(extracted).toContain(words(firstSentence!));
    const extractedWords = new Set(extracted.split(' '));
    const truthWords = words(truth.articleBody).split(' ');
    const found = truthWords.filter((word) => extractedWords.has(word)).length;
    expect(found / truthWords.length).toBeGreaterThan(0.9);
  });
});
