import { type CSSProperties, lazy, type MouseEvent, memo, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { deepLinkSearch } from '../../../src/deep-link.ts';
import { type Flow, ViewStyle } from '../../../src/enums.ts';
import type { PageSummary } from '../../../src/schemas/notes.ts';
import { Icon } from '../../components/icons/Icon.tsx';
import { ClipStatusNote } from '../clip/ClipStatusNote.tsx';
import { useDragSource } from './drag-source.ts';
import { formatDate } from './format-date.ts';
import { SearchHits } from './search-hits.tsx';

// The hover toolbar is not needed to show the list: it arrives just after the first paint.
const RowActions = lazy(() => import('./RowActions.tsx').then((m) => ({ default: m.RowActions })));

/** The reader's address for a page: the spec's deep link `/?pi=…&vs=…`. */
export function readerPath(pageId: string, viewStyle: ViewStyle = ViewStyle.article): string {
  return `/${deepLinkSearch({ kind: 'page', pageId, viewStyle })}`;
}

function siteOf(page: PageSummary): string {
  if (page.siteName) return page.siteName;
  try {
    return new URL(page.url).hostname;
  } catch {
    return page.url;
  }
}

/** A plain click opens the reader in place; modified clicks keep the browser's link behaviour. */
function opensInPlace(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** What a row can ask the list to do; the list owns selection, dialogs and mutations. */
export interface RowHandlers {
  open(pageId: string): void;
  /** A click on the row's checkbox (or a Shift+click anywhere): toggle, or select a range. */
  select(index: number, range: boolean): void;
  focus(index: number): void;
  flow(page: PageSummary, flow: Flow): void;
  trash(page: PageSummary): void;
  restore(page: PageSummary): void;
  deleteForever(page: PageSummary): void;
  editTags(page: PageSummary): void;
  filterTag(tag: string): void;
  /** The ids a drag from this row carries: the selection when the row is in it. */
  dragIds(pageId: string): string[];
}

export const PageListItem = memo(function PageListItem(props: {
  page: PageSummary;
  index: number;
  view: ViewStyle;
  style: CSSProperties;
  active: boolean;
  selected: boolean;
  inTrash: boolean;
  matcher: RegExp | null;
  on: RowHandlers;
}) {
  const { page, index, view, on } = props;
  const { t, i18n } = useTranslation();
  const drag = useDragSource(() => on.dragIds(page.id));
  const title = page.title || t('common.noTitle');
  const showThumb = view !== ViewStyle.list && page.leadImageUrl;
  return (
    <li
      className="page-item"
      data-testid="page-item"
      data-page-id={page.id}
      data-index={index}
      data-clip-status={page.clipStatus}
      data-flow={page.flow}
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
        className="page-item-check"
        data-testid="page-select"
        aria-label={t('library.selectPage', { title })}
        checked={props.selected}
        onChange={() => on.select(index, false)}
      />
      {showThumb && (
        <img
          className="page-item-thumb"
          src={page.leadImageUrl ?? undefined}
          alt=""
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          draggable={false}
          onError={(event) => {
            event.currentTarget.hidden = true;
          }}
        />
      )}
      <div className="page-item-body">
        <h2 className="page-item-title" dir="auto">
          <a
            className="page-item-link"
            href={readerPath(page.id, view)}
            draggable={false}
            onClick={(event) => {
              if (!opensInPlace(event)) return;
              event.preventDefault();
              on.open(page.id);
            }}
          >
            <SearchHits text={title} matcher={props.matcher} />
          </a>
        </h2>
        <p className="page-item-meta">
          <span dir="auto">{siteOf(page)}</span>
          <span aria-hidden="true"> · </span>
          <time dateTime={page.createdAt.toISOString()}>{formatDate(page.createdAt, i18n.language)}</time>
          {page.highlightCount > 0 && (
            <span
              className="page-item-count"
              title={t('library.highlightCount', { count: page.highlightCount })}
            >
              <Icon name="highlight" size={13} />
              {page.highlightCount}
            </span>
          )}
        </p>
        {view !== ViewStyle.list && page.excerpt && (
          <p className="page-item-excerpt" dir="auto">
            <SearchHits text={page.excerpt} matcher={props.matcher} />
          </p>
        )}
        {page.tags.length > 0 && (
          <ul className="page-item-tags" aria-label={t('nav.tag')}>
            {page.tags.map((tag) => (
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
        <ClipStatusNote page={page} className="page-item-status" />
      </div>
      <Suspense fallback={null}>
        <RowActions page={page} inTrash={props.inTrash} on={on} />
      </Suspense>
    </li>
  );
});
