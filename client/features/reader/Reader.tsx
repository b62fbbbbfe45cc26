import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { ClipStatus } from '../../../src/enums.ts';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import type { NoteDetail, NoteSummary } from '../../../src/schemas/notes.ts';
import { readingMinutes } from '../../../src/text/reading-time.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { LocalTime } from '../../components/LocalTime.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { isTypingTarget } from '../../lib/keys.ts';
import { uiLanguageAttributes } from '../../lib/language-attributes.ts';
import { useTRPC } from '../../trpc.ts';
import { ClipStatusNote } from '../clip/ClipStatusNote.tsx';
import { CLIP_POLL_MS, isClipping } from '../clip/clip-status.ts';
import { useHighlightActions } from '../highlights/use-highlight-actions.ts';
import { useNoteCache } from '../notes/note-cache.ts';
import { HighlightDeepLink } from './HighlightDeepLink.tsx';
import { HighlightLayer } from './HighlightLayer.tsx';
import { HighlightsPanel } from './HighlightsPanel.tsx';
import { ReaderActions } from './ReaderActions.tsx';
import { ReaderKeys } from './ReaderKeys.tsx';
import { ReadingProgressBar } from './ReadingProgressBar.tsx';
import { typographyAttributes, useReaderTypography } from './reader-typography.ts';
import { usePaintedHighlights } from './use-painted-highlights.ts';
import { useReadingProgress } from './use-reading-progress.ts';
import '../../styles/reader.css';
import '../../styles/reader-images.css';
import '../../styles/highlights.css';
import '../../styles/reader-tools.css';

const NO_HIGHLIGHTS: readonly Highlight[] = [];

function summaryOf({ contentHtml: _html, text: _text, ...summary }: NoteDetail): NoteSummary {
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
      if (isTypingTarget(event.target)) return;
      if (document.querySelector('[role="menu"], [role="dialog"]')) return;
      onBack();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onBack]);
}

/** The note reader: metadata, actions, the sanitised article. Polls while the note is clipping. */
export function Reader({ noteId, onBack }: { noteId: string; onBack(): void }) {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const cache = useNoteCache();
  const query = useQuery(
    trpc.notes.get.queryOptions(
      { id: noteId },
      {
        // Asked again while the note is clipping, and while its images are being stored.
        refetchInterval: (q) =>
          q.state.data && (isClipping(q.state.data.clipStatus) || q.state.data.imagesPending)
            ? CLIP_POLL_MS
            : false,
      },
    ),
  );
  const note = query.data;
  const highlights = useQuery(trpc.highlights.byNote.queryOptions({ id: noteId })).data ?? NO_HIGHLIGHTS;
  const actions = useHighlightActions(noteId);
  const [reattaching, setReattaching] = useState<Highlight | null>(null);
  const endReattach = useCallback(() => setReattaching(null), []);
  useEscapeToLeave(onBack);
  const contentRef = useHiddenRepeatedTitle(note?.contentHtml, note?.title);
  const painted = usePaintedHighlights(contentRef, note?.contentHtml, highlights);
  const linksToHighlight = new URLSearchParams(useSearch()).has('nx');
  const typography = useReaderTypography(note?.lang);
  // Keep the list (hidden behind the reader) in step with what the reader learns.
  useEffect(() => {
    if (note) cache.changed(summaryOf(note));
  }, [note, cache]);
  // Each note opens at its top (the home page remounts the reader per note id), unless a link
  // points at one of its highlights. Once: effects run again when a hidden <Activity> around the
  // reader shows it again, and by then the reader may have been placed where reading stopped.
  const opensAtHighlight = useRef(linksToHighlight);
  const openedAtTop = useRef(false);
  useEffect(() => {
    if (openedAtTop.current || opensAtHighlight.current) return;
    openedAtTop.current = true;
    window.scrollTo(0, 0);
  }, []);
  // Then where it was left, on this device or another (after the scroll above: effects run in order).
  const readFraction = useReadingProgress(contentRef, note, !opensAtHighlight.current);
  const minutes = useMemo(() => (note?.text ? readingMinutes(note.text) : 0), [note?.text]);

  const back = (
    <button type="button" className="button reader-back" onClick={onBack} data-testid="reader-back">
      <Icon name="back" />
      <span className="reader-back-label">{t('common.back')}</span>
    </button>
  );

  if (!note) {
    return (
      <div className="reader" data-testid="reader" data-state={query.isError ? 'error' : 'loading'}>
        <div className="reader-toolbar">{back}</div>
        <p className={query.isError ? 'field-error' : 'muted'}>
          {query.isError ? errorMessage(query.error, t) : t('app.loading')}
        </p>
      </div>
    );
  }

  const byline = [note.siteName, note.author].filter(Boolean).join(' · ');
  return (
    <div
      className="reader"
      data-testid="reader"
      data-note-id={note.id}
      data-clip-status={note.clipStatus}
      {...typographyAttributes(typography.value)}
    >
      <div className="reader-toolbar">
        {note.contentHtml && <ReadingProgressBar fraction={readFraction} />}
        {back}
        <ReaderActions note={note}>
          <HighlightsPanel
            highlights={highlights}
            painted={painted}
            actions={actions}
            onReattach={setReattaching}
          />
        </ReaderActions>
      </div>
      <article className="reader-article" dir="auto" lang={note.lang ?? undefined}>
        <header className="reader-header">
          <h1 className="reader-title">{note.title || t('common.noTitle')}</h1>
          <p className="reader-meta">
            {byline && (
              <span className="reader-byline" dir="auto">
                {byline}
              </span>
            )}
            {note.publishedAt && <LocalTime date={note.publishedAt} />}
            {minutes > 0 && (
              <span
                className="reader-reading-time"
                data-testid="reading-time"
                {...uiLanguageAttributes(i18n.language)}
              >
                {t('reader.readingTime', { count: minutes })}
              </span>
            )}
          </p>
        </header>
        <ClipStatusNote note={note} className="reader-status" />
        {note.clipStatus === ClipStatus.done && !note.contentHtml && (
          <p className="muted">{t('reader.noContent')}</p>
        )}
        {note.contentHtml && (
          <div
            ref={contentRef}
            className="reader-content"
            data-testid="reader-content"
            // Sanitised with DOMPurify on the server before it was stored.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server-side
            dangerouslySetInnerHTML={{ __html: note.contentHtml }}
          />
        )}
      </article>
      {note.contentHtml && (
        <>
          <HighlightLayer
            root={contentRef}
            note={note}
            highlights={highlights}
            painted={painted}
            actions={actions}
            reattaching={reattaching}
            onReattachEnd={endReattach}
          />
          <HighlightDeepLink root={contentRef} painted={painted} />
        </>
      )}
      <ReaderKeys painted={painted} root={contentRef} />
    </div>
  );
}
