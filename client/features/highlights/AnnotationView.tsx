import { useEffect, useState } from 'react';
import { escapeHtml } from '../../lib/escape-html.ts';

type Render = (markdown: string) => string;
let loaded: Render | null = null;
let loading: Promise<Render> | null = null;

function loadRenderer(): Promise<Render> {
  loading ??= import('./annotation-html.ts').then((m) => {
    loaded = m.annotationHtml;
    return loaded;
  });
  return loading;
}

/** An annotation's Markdown with math, rendered (KaTeX loads the first time one shows). */
export function AnnotationView({ markdown, className }: { markdown: string; className?: string }) {
  const [render, setRender] = useState<Render | null>(() => loaded);
  useEffect(() => {
    if (render) return;
    let live = true;
    void loadRenderer().then((r) => live && setRender(() => r));
    return () => {
      live = false;
    };
  }, [render]);
  const html = render ? render(markdown) : `<p>${escapeHtml(markdown)}</p>`;
  return (
    <div
      className={`annotation ${className ?? ''}`}
      dir="auto"
      data-testid="annotation"
      data-rendered={render ? 'true' : 'false'}
      // Built by renderMarkdown: every source character is escaped; math HTML comes from KaTeX.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped Markdown subset
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
