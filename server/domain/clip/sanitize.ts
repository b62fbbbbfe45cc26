import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';

// DOMPurify runs on a jsdom window: its mutation-XSS defences rely on a spec-conformant HTML
// parser, which jsdom is and linkedom is not. Sanitising only the article body keeps this cheap.
const purify = createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis);

const FORBIDDEN_TAGS = [
  'style',
  'link',
  'meta',
  'base',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'dialog',
];
// Removed together with their content: what is inside them is controls or foreign documents. A
// <form> itself loses only its tag: some sites wrap the whole page, article included, in one.
const FORBIDDEN_WITH_CONTENT = [
  'button',
  'select',
  'textarea',
  'option',
  'dialog',
  'iframe',
  'object',
  'embed',
];
const EXTERNAL_LINK_REL = 'noopener noreferrer nofollow';

purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'IMG') {
    node.setAttribute('loading', 'lazy');
  } else if (node.tagName === 'A' && node.hasAttribute('href')) {
    if ((node.getAttribute('href') ?? '').startsWith('#')) return;
    node.setAttribute('rel', EXTERNAL_LINK_REL);
    node.setAttribute('target', '_blank');
  }
});

const CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: FORBIDDEN_TAGS,
  ADD_FORBID_CONTENTS: FORBIDDEN_WITH_CONTENT,
  FORBID_ATTR: ['style', 'class', 'srcdoc', 'formaction', 'action'],
  ALLOW_DATA_ATTR: false,
};

export function sanitizeArticleHtml(html: string): string {
  // Without markup DOMPurify answers at once and makes no document.
  if (!html.includes('<')) return purify.sanitize(html, CONFIG);
  // The parsed document's <body>, sanitised; its innerHTML is what DOMPurify itself returns.
  const body = purify.sanitize(html, { ...CONFIG, RETURN_DOM: true }) as Element | null;
  if (!body) return '';
  const clean = body.innerHTML;
  // jsdom enters every element with an id (or a name, on img, form and the like) into its
  // window's named properties, those of the document DOMPurify parses into too, and lets go of
  // them only when they leave their document: dropping the document would keep each sanitised
  // body in memory for good (a quarter of a megabyte per corpus page; a pool thread ran out of
  // heap after ~1,000 pages). Removing its root takes them all out.
  body.ownerDocument.documentElement.remove();
  return clean;
}
