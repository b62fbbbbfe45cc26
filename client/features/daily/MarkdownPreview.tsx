import 'katex/dist/katex.min.css';
import type { MouseEvent } from 'react';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { renderMarkdown } from '../../lib/markdown.ts';

/**
 * Rendered Markdown (safe HTML, see markdown.ts) with math. Loaded lazily, with KaTeX and its
 * styles, only when a preview is shown. Same-site links navigate inside the app.
 */
export default function MarkdownPreview({
  text,
  className = '',
  testId,
}: {
  text: string;
  className?: string;
  testId?: string;
}) {
  const [, navigate] = useLocation();
  const html = useMemo(() => renderMarkdown(text), [text]);

  function followInAppLink(event: MouseEvent<HTMLDivElement>) {
    const link = (event.target as Element).closest('a');
    const href = link?.getAttribute('href');
    if (!href?.startsWith('/') || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) {
      return;
    }
    event.preventDefault();
    navigate(href);
  }

  return (
    // Clicks are only intercepted on real links, which stay keyboard-focusable themselves.
    // biome-ignore lint/a11y/useKeyWithClickEvents: delegation for the <a> elements inside
    // biome-ignore lint/a11y/noStaticElementInteractions: see above
    <div
      className={`markdown ${className}`}
      data-testid={testId}
      onClick={followInAppLink}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes all text
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
