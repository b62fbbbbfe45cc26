import { describe, expect, it } from 'vitest';
import { sanitizeArticleHtml } from '../../server/domain/clip/sanitize.ts';

describe('sanitizeArticleHtml', () => {
  it('removes scripts, styles, iframes, forms and embedded objects', () => {
    const html = sanitizeArticleHtml(
      '<p>Keep</p><script>alert(1)</script><style>p{}</style><iframe src="https://x.test"></iframe>' +
        '<form action="https://x.test"><input name="q"><button>Go</button></form>' +
        '<object data="x.swf"></object><embed src="x.swf">',
    );
    expect(html).toBe('<p>Keep</p>');
  });

  it('removes event handlers and inline styles', () => {
    const html = sanitizeArticleHtml(
      '<p onclick="alert(1)" style="position:fixed">a</p><img src="https://x.test/a.png" onerror="alert(1)">',
    );
    expect(html).not.toMatch(/onclick|onerror|style=|alert/);
    expect(html).toContain('<p>a</p>');
  });

  it('drops javascript: and vbscript: URLs, however disguised', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' java&#x09;script:alert(1)',
      'vbscript:x',
    ]) {
      const html = sanitizeArticleHtml(`<a href="${href}">x</a>`);
      expect(html).not.toMatch(/script:/i);
    }
  });

  it('defuses mutation-XSS and namespace-confusion payloads', () => {
    const payloads = [
      '<svg><p><style><img src=x onerror=alert(1)></style></p></svg>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
      '<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=alert(1) src>">',
    ];
    for (const payload of payloads)
      expect(sanitizeArticleHtml(payload)).not.toMatch(/onerror|<svg|<math|<style/i);
  });

  it('keeps image source and alt text and makes images load lazily', () => {
    const html = sanitizeArticleHtml('<img src="https://x.test/a.png" alt="A cat">');
    expect(html).toMatch(/^<img [^>]+>$/);
    expect(html).toContain('src="https://x.test/a.png"');
    expect(html).toContain('alt="A cat"');
    expect(html).toContain('loading="lazy"');
  });

  it('opens links in a new tab without an opener or referrer, and marks them nofollow', () => {
    const html = sanitizeArticleHtml('<a href="https://x.test/">x</a>');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('target="_blank"');
  });

  it('leaves in-page anchors in the same tab', () => {
    expect(sanitizeArticleHtml('<a href="#note-1">1</a>')).toBe('<a href="#note-1">1</a>');
  });
});
