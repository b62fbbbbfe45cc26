import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { deepLinkSearch } from '../../../src/deep-link.ts';
import type { PageSummary } from '../../../src/schemas/notes.ts';
import { ClipStatusNote } from '../clip/ClipStatusNote.tsx';
import { formatDate } from './format-date.ts';

/** The reader's address for a page: the spec's deep link `/?pi=…&vs=article`. */
export function readerPath(pageId: string): string {
  return `/${deepLinkSearch({ kind: 'page', pageId, viewStyle: 'article' })}`;
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

export function PageListItem({ page, onOpen }: { page: PageSummary; onOpen(pageId: string): void }) {
  const { t, i18n } = useTranslation();
  return (
    <li
      className="page-item"
      data-testid="page-item"
      data-page-id={page.id}
      data-clip-status={page.clipStatus}
    >
      <div className="page-item-body">
        <h2 className="page-item-title" dir="auto">
          <a
            className="page-item-link"
            href={readerPath(page.id)}
            onClick={(event) => {
              if (!opensInPlace(event)) return;
              event.preventDefault();
              onOpen(page.id);
            }}
          >
            {page.title || t('common.noTitle')}
          </a>
        </h2>
        <p className="page-item-meta">
          <span dir="auto">{siteOf(page)}</span>
          <span aria-hidden="true"> · </span>
          <time dateTime={page.createdAt.toISOString()}>{formatDate(page.createdAt, i18n.language)}</time>
        </p>
        {page.excerpt && (
          <p className="page-item-excerpt" dir="auto">
            {page.excerpt}
          </p>
        )}
        <ClipStatusNote page={page} className="page-item-status" />
      </div>
      {page.leadImageUrl && (
        <img
          className="page-item-thumb"
          src={page.leadImageUrl}
          alt=""
          width={112}
          height={80}
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          onError={(event) => {
            event.currentTarget.hidden = true;
          }}
        />
      )}
    </li>
  );
}
