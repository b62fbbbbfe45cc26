import { type CSSProperties, lazy, type MouseEvent, memo, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ViewStyle } from '../../../src/enums.ts';
import type { NoteSummary } from '../../../src/schemas/notes.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { LocalTime } from '../../components/LocalTime.tsx';
import { ClipStatusNote } from '../clip/ClipStatusNote.tsx';
import { readerPath } from '../reader/reader-links.ts';
import { useDragSource } from './drag-source.ts';
import { NoteMarkers } from './NoteMarkers.tsx';
import type { RowHandlers } from './row-handlers.ts';
import { SearchHits } from './search-hits.tsx';

// The hover toolbar is not needed to show the list: it arrives just after the first paint.
const RowActions = lazy(() => import('./RowActions.tsx').then((m) => ({ default: m.RowActions })));

function siteOf(note: NoteSummary): string {
  if (note.siteName) return note.siteName;
  try {
    return new URL(note.url).hostname.replace(/^www\./, '');
  } catch {
    return note.url;
  }
}

/** A host written as an address (IPv4, or IPv6 in brackets as URL.hostname gives it) names no site. */
const ADDRESS_HOST = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[\da-f:.]+\])$/i;

/** A card's picture: the note's lead image over a placeholder in the site's own hue and initial. */
function NoteCover({ note, site }: { note: NoteSummary; site: string }) {
  let hue = 0;
  for (const char of site) hue = (hue * 31 + (char.codePointAt(0) ?? 0)) % 360;
  // Every page of an address would show its first digit: a neutral glyph instead.
  const initial = ADDRESS_HOST.test(site) ? null : Array.from(site)[0]?.toUpperCase();
  return (
    <div className="note-item-cover" style={{ '--cover-hue': hue } as CSSProperties} aria-hidden="true">
      <span className="note-item-initial" data-glyph={initial ? undefined : 'globe'}>
        {initial ?? <Icon name="globe" size={40} strokeWidth={1.4} />}
      </span>
      {note.image && <Thumb src={note.image} />}
    </div>
  );
}

function Thumb({ src }: { src: string }) {
  return (
    <img
      className="note-item-thumb"
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      draggable={false}
      onError={(event) => {
        event.currentTarget.hidden = true;
      }}
    />
  );
}

/** A plain click opens the reader in place; modified clicks keep the browser's link behaviour. */
function opensInPlace(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

export const NoteListItem = memo(function NoteListItem(props: {
  note: NoteSummary;
  index: number;
  view: ViewStyle;
  style: CSSProperties;
  active: boolean;
  selected: boolean;
  inTrash: boolean;
  matcher: RegExp | null;
  on: RowHandlers;
}) {
  const { note, index, view, on } = props;
  const { t } = useTranslation();
  const drag = useDragSource(() => on.dragIds(note.id));
  const title = note.title || t('common.noTitle');
  const site = siteOf(note);
  return (
    <li
      className="note-item"
      data-testid="note-item"
      data-note-id={note.id}
      data-index={index}
      data-clip-status={note.clipStatus}
      data-flow={note.flow}
      data-active={props.active || undefined}
      data-selected={props.selected || undefined}
      style={props.style}
      onClickCapture={(event) => {
        if (event.shiftKey) {
          event.preventDefault();
          event.stopPropagation();
          on.select(index, true);
        }
      }}
      onFocus={() => on.focus(index)}
      {...drag}
    >
      <input
        type="checkbox"
        className="note-item-check"
        data-testid="note-select"
        aria-label={t('notes.selectNote', { title })}
        checked={props.selected}
        onChange={() => on.select(index, false)}
      />
      {view === ViewStyle.card ? (
        <NoteCover note={note} site={site} />
      ) : (
        view === ViewStyle.article && note.image && <Thumb src={note.image} />
      )}
      <div className="note-item-body">
        <h2 className="note-item-title" dir="auto">
          <a
            className="note-item-link"
            href={readerPath(note.id, view)}
            draggable={false}
            onClick={(event) => {
              if (!opensInPlace(event)) return;
              event.preventDefault();
              on.open(note.id);
            }}
          >
            <SearchHits text={title} matcher={props.matcher} />
          </a>
        </h2>
        <p className="note-item-meta">
          <span dir="auto">{site}</span>
          <span aria-hidden="true"> · </span>
          <LocalTime date={note.createdAt} deferred />
          {note.highlightCount > 0 && (
            <span
              className="note-item-count"
              title={t('notes.highlightCount', { count: note.highlightCount })}
            >
              <Icon name="highlight" size={13} />
              {note.highlightCount}
            </span>
          )}
          <NoteMarkers note={note} inTrash={props.inTrash} />
        </p>
        {view !== ViewStyle.list && note.excerpt && (
          <p className="note-item-excerpt" dir="auto">
            <SearchHits text={note.excerpt} matcher={props.matcher} />
          </p>
        )}
        {note.tags.length > 0 && (
          <ul className="note-item-tags" aria-label={t('nav.tag')}>
            {note.tags.map((tag) => (
              <li key={tag}>
                <button
                  type="button"
                  className="tag-chip"
                  dir="auto"
                  onClick={(event) => {
                    event.stopPropagation();
                    on.filterTag(tag);
                  }}
                >
                  #{tag}
                </button>
              </li>
            ))}
          </ul>
        )}
        <ClipStatusNote note={note} className="note-item-status" />
      </div>
      <Suspense fallback={null}>
        <RowActions note={note} inTrash={props.inTrash} on={on} />
      </Suspense>
    </li>
  );
});
