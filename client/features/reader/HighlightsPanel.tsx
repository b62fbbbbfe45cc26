import { Dialog } from 'radix-ui';
import { type RefObject, useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CoreType, TextTooltipStyle } from '../../../src/enums.ts';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import { onModEnter } from '../../lib/keys.ts';
import { useWindowedRows } from '../../lib/use-windowed-rows.ts';
import { MoveToDailyButton } from '../daily/move-to-daily.tsx';
import { AnnotationView } from '../highlights/AnnotationView.tsx';
import { HighlightQuote } from '../highlights/HighlightQuote.tsx';
import { highlightVars } from '../highlights/highlight-look.ts';
import { TOOLTIP_STYLE_LABEL_KEYS, useTooltipStyle } from '../highlights/tooltip-style.ts';
import type { HighlightActions } from '../highlights/use-highlight-actions.ts';
import { flashHighlight } from './flash.ts';
import type { Placement } from './highlight-placement.ts';
import type { PaintedHighlights } from './painted-highlights.ts';

/** A guess at an entry's height (a two-line quote and the gap below it) until it is measured. */
const ENTRY_HEIGHT_ESTIMATE = 64;

interface Sections {
  placed: Highlight[];
  unplaced: Highlight[];
  textNotes: Highlight[];
}

/** Reading order for what is painted; detached (or unplaceable) highlights apart, never dropped. */
function sectionsOf(highlights: readonly Highlight[], placements: ReadonlyMap<string, Placement>): Sections {
  const sections: Sections = { placed: [], unplaced: [], textNotes: [] };
  for (const h of highlights) {
    if (h.coreType === CoreType.textNote) sections.textNotes.push(h);
    else if (!h.detached && placements.has(h.id)) sections.placed.push(h);
    else sections.unplaced.push(h);
  }
  const at = (h: Highlight) => placements.get(h.id)?.start ?? h.positionStart ?? Number.MAX_SAFE_INTEGER;
  sections.placed.sort((a, b) => at(a) - at(b));
  return sections;
}

function HighlightEntry({
  highlight,
  onJump,
  onReattach,
}: {
  highlight: Highlight;
  onJump?: () => void;
  onReattach?: () => void;
}) {
  const { t } = useTranslation();
  const quote = (
    <HighlightQuote imageUrl={highlight.imageUrl} text={highlight.text} textClassName="panel-quote-text" />
  );
  return (
    <div
      className="panel-entry"
      data-testid="panel-entry"
      data-highlight-id={highlight.id}
      style={highlightVars(highlight.slotId)}
    >
      <div className="panel-entry-head">
        {onJump ? (
          <button type="button" className="panel-quote" onClick={onJump} dir="auto">
            {quote}
          </button>
        ) : (
          <div className="panel-quote" dir="auto">
            {quote}
          </div>
        )}
        <MoveToDailyButton ids={[highlight.id]} compact />
      </div>
      {highlight.annotation && (
        <AnnotationView markdown={highlight.annotation.message} className="panel-annotation" />
      )}
      {highlight.tags.length > 0 && (
        <p className="panel-tags">
          {highlight.tags.map((tag) => (
            <span key={tag} className="tag-chip" dir="auto">
              {tag}
            </span>
          ))}
        </p>
      )}
      {onReattach && highlight.coreType === CoreType.highlight && (
        <button
          type="button"
          className="button panel-reattach"
          data-testid="panel-reattach"
          onClick={onReattach}
        >
          {t('highlights.reattach')}
        </button>
      )}
    </div>
  );
}

/**
 * Entries windowed inside the drawer: only those near its visible part are rendered, each placed
 * by the measured heights of those before it (estimated until they have been rendered once).
 */
function WindowedEntries({
  highlights,
  scroller,
  ordered,
  testId,
  onJump,
  onReattach,
}: {
  highlights: readonly Highlight[];
  scroller: RefObject<HTMLElement | null>;
  ordered: boolean;
  testId: string;
  onJump?: (id: string) => void;
  onReattach?: (highlight: Highlight) => void;
}) {
  const keyOf = useCallback((index: number) => highlights[index]?.id ?? '', [highlights]);
  const rows = useWindowedRows<HTMLOListElement & HTMLUListElement>(
    highlights.length,
    ENTRY_HEIGHT_ESTIMATE,
    { scroller, keyOf },
  );
  const List = ordered ? 'ol' : 'ul';
  return (
    <List
      ref={rows.ref}
      className="panel-list panel-window"
      style={{ blockSize: rows.totalHeight }}
      data-testid={testId}
    >
      {highlights.slice(rows.start, rows.end).map((h, k) => {
        const index = rows.start + k;
        return (
          <li
            key={h.id}
            ref={rows.measure(index)}
            className="panel-row"
            style={{ insetBlockStart: rows.offsetOf(index) }}
            aria-setsize={highlights.length}
            aria-posinset={index + 1}
          >
            <HighlightEntry
              highlight={h}
              onJump={onJump && (() => onJump(h.id))}
              onReattach={onReattach && (() => onReattach(h))}
            />
          </li>
        );
      })}
    </List>
  );
}

/**
 * The reader's highlights drawer: highlights in reading order, ones that could not be placed (each
 * can be re-attached to text the user selects), text notes.
 */
export function HighlightsPanel({
  highlights,
  painted,
  actions,
  onReattach,
}: {
  highlights: readonly Highlight[];
  painted: PaintedHighlights;
  actions: HighlightActions;
  onReattach: (highlight: Highlight) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const [tooltipStyle, setTooltipStyle] = useTooltipStyle();
  const textNoteInputId = useId();
  const styleId = useId();
  const drawer = useRef<HTMLDivElement>(null);
  const { placements } = painted;
  const { placed, unplaced, textNotes } = useMemo(
    () => sectionsOf(highlights, placements),
    [highlights, placements],
  );
  const count = placed.length + unplaced.length;

  const jump = (id: string) => {
    setOpen(false);
    // After the drawer has let go of the page's scroll.
    setTimeout(() => flashHighlight(painted, id), 50);
  };
  async function addTextNote() {
    const text = draft.trim();
    if (!text) return;
    setDraft('');
    const saved = await actions.create({ coreType: CoreType.textNote, text });
    if (!saved) setDraft(text);
  }

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="button" data-testid="reader-highlights" data-count={count}>
        {t('highlights.panelTitle')}
        {count > 0 && <span className="panel-count">{count}</span>}
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="drawer-overlay" />
        <Dialog.Content
          ref={drawer}
          className="drawer panel-drawer"
          data-testid="highlights-panel"
          aria-describedby={undefined}
        >
          <div className="drawer-head">
            <Dialog.Title className="panel-title">{t('highlights.panelTitle')}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label={t('common.close')}>
              <span aria-hidden="true">×</span>
            </Dialog.Close>
          </div>
          {placed.length === 0 && unplaced.length === 0 && <p className="muted">{t('highlights.noneYet')}</p>}
          {placed.length > 0 && (
            <WindowedEntries
              highlights={placed}
              scroller={drawer}
              ordered
              testId="panel-placed"
              onJump={jump}
            />
          )}
          {unplaced.length > 0 && (
            <section className="panel-section" data-testid="panel-unplaced">
              <h3>{t('highlights.couldNotPlace')}</h3>
              <p className="muted panel-hint">{t('highlights.couldNotPlaceHint')}</p>
              <WindowedEntries
                highlights={unplaced}
                scroller={drawer}
                ordered={false}
                testId="panel-unplaced-list"
                onReattach={(highlight) => {
                  setOpen(false);
                  onReattach(highlight);
                }}
              />
            </section>
          )}
          <section className="panel-section" data-testid="panel-text-notes">
            <h3>{t('highlights.textNotes')}</h3>
            {textNotes.length > 0 && (
              <ul className="panel-list">
                {textNotes.map((textNote) => (
                  <li
                    key={textNote.id}
                    className="panel-entry panel-text-note"
                    data-testid="panel-text-note"
                    data-highlight-id={textNote.id}
                  >
                    <AnnotationView markdown={textNote.text} />
                    <button
                      type="button"
                      className="button panel-delete"
                      aria-label={t('common.delete')}
                      onClick={() => void actions.remove(textNote)}
                    >
                      {t('common.delete')}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <form
              className="panel-compose"
              onSubmit={(event) => {
                event.preventDefault();
                void addTextNote();
              }}
            >
              <label htmlFor={textNoteInputId} className="visually-hidden">
                {t('highlights.addTextNote')}
              </label>
              <textarea
                id={textNoteInputId}
                data-testid="panel-text-note-input"
                rows={3}
                value={draft}
                placeholder={t('highlights.addTextNotePlaceholder')}
                onChange={(event) => setDraft(event.target.value)}
                onKeyDown={onModEnter(() => void addTextNote())}
              />
              <button
                type="submit"
                className="button button-primary"
                disabled={!draft.trim()}
                data-testid="panel-text-note-add"
              >
                {t('highlights.addTextNote')}
              </button>
            </form>
          </section>
          <section className="panel-section panel-settings">
            <label htmlFor={styleId}>{t('highlights.tooltipStyleLabel')}</label>
            <select
              id={styleId}
              data-testid="tooltip-style-select"
              value={tooltipStyle}
              onChange={(event) => setTooltipStyle(Number(event.target.value) as TextTooltipStyle)}
            >
              {Object.values(TextTooltipStyle).map((value) => (
                <option key={value} value={value}>
                  {t(TOOLTIP_STYLE_LABEL_KEYS[value])}
                </option>
              ))}
            </select>
          </section>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
