import { useInfiniteQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTE_LIST_CHUNK } from '../../../src/constants.ts';
import type { Flow, SortOrder, ViewStyle } from '../../../src/enums.ts';
import type { NoteSummary } from '../../../src/schemas/notes.ts';
import { withTranslations } from '../../i18n.ts';
import { useWindowedRows } from '../../lib/use-windowed-rows.ts';
import { useTRPC } from '../../trpc.ts';
import { CLIP_POLL_MS, isClipping } from '../clip/clip-status.ts';
import { EmptyList, TrashNotice } from './EmptyList.tsx';
import type { NoteDialogRequest } from './NoteDialogs.tsx';
import { NoteListItem } from './NoteListItem.tsx';
import type { NoteActions } from './note-actions.ts';
import { type NoteFilters, searchText } from './note-list-url.ts';
import type { RowHandlers } from './row-handlers.ts';
import { searchMatcher } from './search-hits.tsx';
import { columnsFor, itemStyle, ROW_PITCH } from './view-layout.ts';

const NoteDialogs = lazy(() =>
  withTranslations(import('./NoteDialogs.tsx'), 'noteDialogs').then((m) => ({ default: m.NoteDialogs })),
);
const ActionsHost = lazy(() => import('./note-actions.ts').then((m) => ({ default: m.NoteActionsHost })));
const ListKeyboard = lazy(() => import('./ListKeyboard.tsx').then((m) => ({ default: m.ListKeyboard })));
const BulkBar = lazy(() => import('./BulkBar.tsx').then((m) => ({ default: m.BulkBar })));

/** The sticky top bar's height plus breathing room, for keeping the active row in view. */
const TOP_INSET = 64;

/** The list's query for the filters: what the list shows, and what the boot prefetches. */
export function noteListOptions(trpc: ReturnType<typeof useTRPC>, filters: NoteFilters, sort: SortOrder) {
  const q = searchText(filters).slice(0, 200);
  return trpc.notes.list.infiniteQueryOptions(
    {
      nav: filters.nav,
      sort,
      limit: NOTE_LIST_CHUNK,
      ...(q && { q }),
      ...(filters.folderId && { folderId: filters.folderId }),
    },
    {
      getNextPageParam: (last) => last.nextCursor,
      refetchInterval: (query) =>
        query.state.data?.pages.some((chunk) => chunk.items.some((item) => isClipping(item.clipStatus)))
          ? CLIP_POLL_MS
          : false,
    },
  );
}

function useNoteList(filters: NoteFilters, sort: SortOrder) {
  return useInfiniteQuery(noteListOptions(useTRPC(), filters, sort));
}

/**
 * The note list for the current filters: windowed (only rows near the viewport exist),
 * loading further chunks as it nears the end. ArrowUp/ArrowDown move the active row, Enter opens
 * it, x selects it, Shift+click selects a range; a bulk bar acts on the selection.
 */
export function NoteList(props: {
  filters: NoteFilters;
  sort: SortOrder;
  view: ViewStyle;
  onOpen(noteId: string): void;
  onFilterTag(tag: string): void;
}) {
  const { filters, view, onOpen, onFilterTag } = props;
  const { t } = useTranslation();
  const list = useNoteList(filters, props.sort);
  const [actions, setActions] = useState<NoteActions | null>(null);
  const items = useMemo(() => list.data?.pages.flatMap((chunk) => chunk.items) ?? [], [list.data]);
  const [active, setActive] = useState(-1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [dialog, setDialog] = useState<NoteDialogRequest | null>(null);
  const anchor = useRef(-1);
  const inTrash = filters.nav === 'trash';
  const matcher = useMemo(() => searchMatcher(filters.kw), [filters.kw]);

  const [columnsWidth, setColumnsWidth] = useState(0);
  const columns = columnsFor(view, columnsWidth);
  const rowCount = Math.ceil(items.length / columns);
  const rows = useWindowedRows(rowCount, ROW_PITCH[view]);
  useEffect(() => setColumnsWidth(rows.width), [rows.width]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && rows.end >= rowCount - 2) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, rows.end, rowCount]);

  // Handlers read the latest state through a ref, so rows (memoised) never re-render for them.
  const latest = useRef({ items, selected, columns });
  latest.current = { items, selected, columns };
  const on = useMemo<RowHandlers>(
    () => ({
      open: onOpen,
      focus: setActive,
      select(index, range) {
        const { items: all } = latest.current;
        // Read the anchor now: the state updater below runs later, after it has moved.
        const from = range && anchor.current >= 0 ? Math.min(anchor.current, index) : index;
        const to = range && anchor.current >= 0 ? Math.max(anchor.current, index) : index;
        anchor.current = index;
        setActive(index);
        setSelected((prev) => {
          const next = new Set(prev);
          if (range) {
            for (const note of all.slice(from, to + 1)) next.add(note.id);
          } else {
            const id = all[index]?.id;
            if (id && !next.delete(id)) next.add(id);
          }
          return next;
        });
      },
      flow: (note: NoteSummary, flow: Flow) => actions?.toggleFlow([note.id], note.flow, flow),
      trash: (note) => actions?.trash([note.id]),
      restore: (note) => actions?.restore([note.id]),
      deleteForever: (note) => setDialog({ kind: 'deleteForever', ids: [note.id] }),
      editTags: (note) => setDialog({ kind: 'tags', ids: [note.id], tags: note.tags }),
      filterTag: onFilterTag,
      dragIds: (noteId) => {
        const current = latest.current.selected;
        return current.has(noteId) ? [...current] : [noteId];
      },
    }),
    [actions, onOpen, onFilterTag],
  );

  if (list.isPending) return <p className="muted note-list-loading">{t('app.loading')}</p>;
  if (items.length === 0) return <EmptyList filters={filters} />;
  const visible = items.slice(rows.start * columns, rows.end * columns);
  const firstIndex = rows.start * columns;
  return (
    <>
      <Suspense fallback={null}>
        <ActionsHost onReady={setActions} />
        <ListKeyboard
          count={items.length}
          active={active}
          move={(index) => {
            setActive(index);
            rows.scrollToRow(Math.floor(index / columns), TOP_INSET);
          }}
          open={(index) => onOpen(items[index]?.id ?? '')}
          toggle={(index) => on.select(index, false)}
          clear={() => setSelected(new Set())}
        />
      </Suspense>
      {inTrash && <TrashNotice />}
      <div
        ref={rows.ref}
        className="note-list-window"
        style={{ blockSize: rows.totalHeight }}
        data-testid="note-list"
        data-view={view}
        data-columns={columns}
        data-count={items.length}
        data-complete={!hasNextPage || undefined}
      >
        <ul
          className="note-list"
          data-view={view}
          data-selecting={selected.size > 0 || undefined}
          aria-label={t('notes.listLabel')}
        >
          {visible.map((note, offset) => {
            const index = firstIndex + offset;
            return (
              <NoteListItem
                key={note.id}
                note={note}
                index={index}
                view={view}
                style={itemStyle(view, index, columns)}
                active={index === active}
                selected={selected.has(note.id)}
                inTrash={inTrash}
                matcher={matcher}
                on={on}
              />
            );
          })}
        </ul>
      </div>
      {isFetchingNextPage && <p className="muted note-list-loading">{t('app.loading')}</p>}
      {/* After the list, sticky to the screen's foot: at the end of the list it stands below the
          last row instead of over it, and it stays within the list's column. */}
      {actions && selected.size > 0 && (
        <Suspense fallback={null}>
          <BulkBar
            ids={[...selected]}
            inTrash={inTrash}
            actions={actions}
            onDialog={setDialog}
            onClear={() => setSelected(new Set())}
          />
        </Suspense>
      )}
      {actions && dialog && (
        <Suspense fallback={null}>
          <NoteDialogs
            request={dialog}
            actions={actions}
            onClose={() => setDialog(null)}
            onDone={() => setSelected(new Set())}
          />
        </Suspense>
      )}
    </>
  );
}
