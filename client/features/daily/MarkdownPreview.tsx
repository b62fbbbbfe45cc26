import 'katex/dist/katex.min.css';
import type { MouseEvent } from 'react';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useLocation } from 'wouter';
import { renderMarkdown } from '../../lib/markdown.ts';

/**
 * Rendered Markdown (safe HTML, see markdown.ts) with math. Loaded lazily, with KaTeX and its
 * styles, only when a preview is shown. Same-site links navigate inside the app. With
 * `onToggleTask`, task checkboxes can be ticked (by click or Space): it gets the task's source line.
 */
export default function MarkdownPreview({
  text,
  className = '',
  testId,
  onToggleTask,
}: {
  text: string;
  className?: string;
  testId?: string;
  onToggleTask?: (line: number, checked: boolean) => void;
}) {
  const [, navigate] = useLocation();
  const checkableTasks = Boolean(onToggleTask);
  const html = useMemo(() => renderMarkdown(text, { checkableTasks }), [text, checkableTasks]);

  // A ticked task re-renders the HTML: the checkbox that had the focus gets it back.
  const root = useRef<HTMLDivElement>(null);
  const refocusLine = useRef<string | null>(null);
  useLayoutEffect(() => {
    const line = refocusLine.current;
    if (line === null) return;
    refocusLine.current = null;
    root.current?.querySelector<HTMLInputElement>(`[data-task-line="${line}"]`)?.focus();
  });

  function onClick(event: MouseEvent<HTMLDivElement>) {
    const target = event.target as Element;
    const line = target instanceof HTMLInputElement ? target.dataset.taskLine : undefined;
    if (line === undefined) return followInAppLink(event);
    // The box shows the source: it changes when the text does, not on its own.
    event.preventDefault();
    refocusLine.current = line;
    onToggleTask?.(Number(line), (target as HTMLInputElement).checked);
  }

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
    // Clicks are only intercepted on real links and checkboxes, which stay keyboard-operable
    // themselves (Space on a checkbox is a click).
    // biome-ignore lint/a11y/useKeyWithClickEvents: delegation for the <a> and <input> elements inside
    // biome-ignore lint/a11y/noStaticElementInteractions: see above
    <div
      className={`markdown ${className}`}
      ref={root}
      data-testid={testId}
      onClick={onClick}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes all text
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
