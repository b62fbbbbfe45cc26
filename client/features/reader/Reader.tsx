import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { ClipStatus } from '../../../src/enums.ts';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import type { PageDetail, PageSummary } from '../../../src/schemas/notes.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useTRPC } from '../../trpc.ts';
import { ClipStatusNote } from '../clip/ClipStatusNote.tsx';
import { CLIP_POLL_MS, isClipping } from '../clip/clip-status.ts';
import { useHighlightActions } from '../highlights/use-highlight-actions.ts';
import { formatDate } from '../library/format-date.ts';
import { usePageCache } from '../library/page-cache.ts';
import { HighlightDeepLink } from './HighlightDeepLink.tsx';
import { HighlightLayer } from './HighlightLayer.tsx';
import { NotesPanel } from './NotesPanel.tsx';
import { ReaderActions } from './ReaderActions.tsx';
import { usePaintedHighlights } from './use-painted-highlights.ts';
import '../../styles/reader.css';
import '../../styles/highlights.css';

const NO_HIGHLIGHTS: readonly Highlight[] = [];

function summaryOf({ contentHtml: _html, text: _text, ...summary }: PageDetail): PageSummary {
  return summary;
}

const sameText = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/**
 * Extraction often keeps the article's own title as its first heading; the reader already shows
 * the title above, so that heading is hidden (not removed: the text stays what highlights anchor to).
 */
function useHiddenRepeatedTitle(contentHtml: string | undefined, title: string | undefined) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    let first = ref.current?.firstElementChild;
    while (first && /^(DIV|SECTION|ARTICLE|HEADER|MAIN)$/.test(first.tagName))
      first = first.firstElementChild;
    if (!(first instanceof HTMLElement) || !title || !contentHtml) return;
    if (/^H[1-3]$/.test(first.tagName) && sameText(first.textContent ?? '', title)) first.hidden = true;
  }, [contentHtml, title]);
  return ref;
}

/** Esc goes back to the list, unless a menu or a text field has the key. */
function useEscapeToLeave(onBack: () => void) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (document.querySelector('[role="menu"], [role="dialog"]')) return;
      onBack();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onBack]);
}

/** The page reader: metadata, actions, the sanitised article. Polls while the page is clipping. */
export function Reader({ pageId, onBack }: { pageId: string; onBack(): void }) {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const cache = usePageCache();
  const query = useQuery(
    trpc.notes.page.queryOptions(
      { id: pageId },
      {
        refetchInterval: (q) => (q.state.data && isClipping(q.state.data.clipStatus) ? CLIP_POLL_MS : false),
      },
    ),
  );
  const page = query.data;
  const highlights = useQuery(trpc.highlights.byPage.queryOptions({ id: pageId })).data ?? NO_HIGHLIGHTS;
  const actions = useHighlightActions(pageId);
  useEscapeToLeave(onBack);
  const contentRef = useHiddenRepeatedTitle(page?.contentHtml, page?.title);
  const placements = usePaintedHighlights(contentRef, page?.contentHtml, highlights);
  const linksToNote = new URLSearchParams(useSearch()).has('nx');
  // Keep the list (hidden behind the reader) in step with what the reader learns.
  useEffect(() => {
    if (page) cache.changed(summaryOf(page));
  }, [page, cache]);
  // Each page opens at its top (the home page remounts the reader per page id), unless a link
  // points at one of its highlights.
  const opensAtNote = useRef(linksToNote);
  useEffect(() => {
    if (!opensAtNote.current) window.scrollTo(0, 0);
  }, []);

  const back = (
    <button type="button" className="button reader-back" onClick={onBack} data-testid="reader-back">
      <Icon name="back" />
      <span className="reader-back-label">{t('common.back')}</span>
    </button>
  );

  if (!page) {
    return (
      <div className="reader" data-testid="reader" data-state={query.isError ? 'error' : 'loading'}>
        <div className="reader-toolbar">{back}</div>
        <p className={query.isError ? 'field-error' : 'muted'}>
          {query.isError ? errorMessage(query.error, t) : t('app.loading')}
        </p>
      </div>
    );
  }

  const byline = [page.siteName, page.author].filter(Boolean).join(' · ');
  return (
    <div className="reader" data-testid="reader" data-page-id={page.id} data-clip-status={page.clipStatus}>
      <div className="reader-toolbar">
        {back}
        <div className="reader-actions">
          <NotesPanel root={contentRef} highlights={highlights} placements={placements} actions={actions} />
          <ReaderActions page={page} />
        </div>
      </div>
      <article className="reader-article" dir="auto" lang={page.lang ?? undefined}>
        <header className="reader-header">
          <h1 className="reader-title">{page.title || t('common.noTitle')}</h1>
          <p className="reader-meta">
            {byline && <span className="reader-byline">{byline}</span>}
            {page.publishedAt && (
              <time dateTime={page.publishedAt.toISOString()}>
                {formatDate(page.publishedAt, i18n.language)}
              </time>
            )}
          </p>
        </header>
        <ClipStatusNote page={page} className="reader-status" />
        {page.clipStatus === ClipStatus.done && !page.contentHtml && (
          <p className="muted">{t('reader.noContent')}</p>
        )}
        {page.contentHtml && (
          <div
            ref={contentRef}
            className="reader-content"
            data-testid="reader-content"
            // Sanitised with DOMPurify on the server before it was stored.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server-side
            dangerouslySetInnerHTML={{ __html: page.contentHtml }}
          />
        )}
      </article>
      {page.contentHtml && (
        <>
          <HighlightLayer root={contentRef} page={page} highlights={highlights} actions={actions} />
          <HighlightDeepLink root={contentRef} placements={placements} />
        </>
      )}
    </div>
  );
}
