import { Dialog } from 'radix-ui';
import { type RefObject, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CoreType, TextTooltipStyle } from '../../../src/enums.ts';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import { AnnotationView } from '../highlights/AnnotationView.tsx';
import { highlightVars } from '../highlights/highlight-look.ts';
import { TOOLTIP_STYLE_LABEL_KEYS, useTooltipStyle } from '../highlights/tooltip-style.ts';
import type { HighlightActions } from '../highlights/use-highlight-actions.ts';
import { flashHighlight } from './flash.ts';
import type { Placement } from './highlight-marks.ts';

interface Sections {
  placed: Highlight[];
  unplaced: Highlight[];
  notes: Highlight[];
}

/** Reading order for what is painted; detached (or unplaceable) highlights apart, never dropped. */
function sectionsOf(highlights: readonly Highlight[], placements: ReadonlyMap<string, Placement>): Sections {
  const sections: Sections = { placed: [], unplaced: [], notes: [] };
  for (const h of highlights) {
    if (h.coreType === CoreType.textNote) sections.notes.push(h);
    else if (!h.detached && placements.has(h.id)) sections.placed.push(h);
    else sections.unplaced.push(h);
  }
  const at = (h: Highlight) => placements.get(h.id)?.start ?? h.positionStart ?? Number.MAX_SAFE_INTEGER;
  sections.placed.sort((a, b) => at(a) - at(b));
  return sections;
}

function HighlightEntry({ highlight, onJump }: { highlight: Highlight; onJump?: () => void }) {
  const quote = highlight.imageUrl ? (
    <img className="notes-image" src={highlight.imageUrl} alt="" loading="lazy" />
  ) : (
    <span className="notes-quote-text">{highlight.text}</span>
  );
  return (
    <li
      className="notes-entry"
      data-testid="notes-entry"
      data-highlight-id={highlight.id}
      style={highlightVars(highlight.slotId)}
    >
      {onJump ? (
        <button type="button" className="notes-quote" onClick={onJump}>
          {quote}
        </button>
      ) : (
        <div className="notes-quote">{quote}</div>
      )}
      {highlight.annotation && (
        <AnnotationView markdown={highlight.annotation.message} className="notes-annotation" />
      )}
      {highlight.tags.length > 0 && (
        <p className="notes-tags">
          {highlight.tags.map((tag) => (
            <span key={tag} className="tag-chip">
              {tag}
            </span>
          ))}
        </p>
      )}
    </li>
  );
}

/** The reader's notes drawer: highlights in reading order, ones that could not be placed, page notes. */
export function NotesPanel({
  root,
  highlights,
  placements,
  actions,
}: {
  root: RefObject<HTMLElement | null>;
  highlights: readonly Highlight[];
  placements: ReadonlyMap<string, Placement>;
  actions: HighlightActions;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const [tooltipStyle, setTooltipStyle] = useTooltipStyle();
  const noteId = useId();
  const styleId = useId();
  const { placed, unplaced, notes } = sectionsOf(highlights, placements);
  const count = placed.length + unplaced.length;

  const jump = (id: string) => {
    setOpen(false);
    // After the drawer has let go of the page's scroll.
    setTimeout(() => root.current && flashHighlight(root.current, id), 50);
  };
  async function addNote() {
    const text = draft.trim();
    if (!text) return;
    setDraft('');
    const saved = await actions.create({ coreType: CoreType.textNote, text });
    if (!saved) setDraft(text);
  }

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="button" data-testid="reader-notes" data-count={count}>
        {t('highlights.notes')}
        {count > 0 && <span className="notes-count">{count}</span>}
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="drawer-overlay" />
        <Dialog.Content
          className="drawer notes-drawer"
          data-testid="notes-panel"
          aria-describedby={undefined}
        >
          <div className="drawer-head">
            <Dialog.Title className="notes-title">{t('highlights.notes')}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label={t('common.close')}>
              <span aria-hidden="true">×</span>
            </Dialog.Close>
          </div>
          {placed.length === 0 && unplaced.length === 0 && <p className="muted">{t('highlights.noneYet')}</p>}
          {placed.length > 0 && (
            <ol className="notes-list" data-testid="notes-placed">
              {placed.map((h) => (
                <HighlightEntry key={h.id} highlight={h} onJump={() => jump(h.id)} />
              ))}
            </ol>
          )}
          {unplaced.length > 0 && (
            <section className="notes-section" data-testid="notes-unplaced">
              <h3>{t('highlights.couldNotPlace')}</h3>
              <p className="muted notes-hint">{t('highlights.couldNotPlaceHint')}</p>
              <ul className="notes-list">
                {unplaced.map((h) => (
                  <HighlightEntry key={h.id} highlight={h} />
                ))}
              </ul>
            </section>
          )}
          <section className="notes-section" data-testid="page-notes">
            <h3>{t('highlights.pageNotes')}</h3>
            {notes.length > 0 && (
              <ul className="notes-list">
                {notes.map((note) => (
                  <li
                    key={note.id}
                    className="notes-entry notes-text-note"
                    data-testid="page-note"
                    data-highlight-id={note.id}
                  >
                    <AnnotationView markdown={note.text} />
                    <button
                      type="button"
                      className="button notes-delete"
                      aria-label={t('common.delete')}
                      onClick={() => void actions.remove(note)}
                    >
                      {t('common.delete')}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <form
              className="notes-compose"
              onSubmit={(event) => {
                event.preventDefault();
                void addNote();
              }}
            >
              <label htmlFor={noteId} className="visually-hidden">
                {t('highlights.addNote')}
              </label>
              <textarea
                id={noteId}
                data-testid="page-note-input"
                rows={3}
                value={draft}
                placeholder={t('highlights.addNotePlaceholder')}
                onChange={(event) => setDraft(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
                    event.preventDefault();
                    void addNote();
                  }
                }}
              />
              <button
                type="submit"
                className="button button-primary"
                disabled={!draft.trim()}
                data-testid="page-note-add"
              >
                {t('highlights.addNote')}
              </button>
            </form>
          </section>
          <section className="notes-section notes-settings">
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
