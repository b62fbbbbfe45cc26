// Removes, before Readability scores the page, blocks that are never article body: image captions
// and credits (the body's text conventions leave them out), hidden elements, and page chrome
// marked up as such (navigation, asides, footers, banners).

const CAPTION_SELECTORS = ['figcaption', '[class*="caption" i]', '[class*="credit" i]'];
const HIDDEN_SELECTORS = [
  '[hidden]',
  '[aria-hidden="true"]',
  '[style*="display:none" i]',
  '[style*="display: none" i]',
];

const CHROME_SELECTORS = [
  'nav',
  'aside',
  'footer',
  '[role="navigation"]',
  '[role="complementary"]',
  '[role="contentinfo"]',
  '[role="banner"]',
];

export function preClean(document: Document): void {
  for (const selector of [...CAPTION_SELECTORS, ...HIDDEN_SELECTORS, ...CHROME_SELECTORS]) {
    for (const element of document.querySelectorAll(selector)) {
      if (element.tagName !== 'BODY' && element.tagName !== 'HTML') element.remove();
    }
  }
}
