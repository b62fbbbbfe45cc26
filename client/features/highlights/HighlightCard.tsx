import { Popover } from 'radix-ui';
import { type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CoreType } from '../../../src/enums.ts';
import { highlightCopyText } from '../../../src/rules/highlight-format.ts';
import type { Highlight } from '../../../src/schemas/highlights.ts';
import type { NoteSummary } from '../../../src/schemas/notes.ts';
import { copyText } from '../../lib/clipboard.ts';
import { notify } from '../../lib/notify.ts';
import { useMe } from '../auth/session.ts';
import { MoveToDailyButton } from '../daily/move-to-daily.tsx';
import { AnnotationEditor } from './AnnotationEditor.tsx';
import { AnnotationView } from './AnnotationView.tsx';
import { annotationDraftKey, clearAnnotationDraft, readAnnotationDraft } from './annotation-draft.ts';
import { ColourButtons, StyleButtons } from './HighlightPickers.tsx';
import { TagChipsInput } from './TagChipsInput.tsx';
import type { HighlightActions } from './use-highlight-actions.ts';

export interface Measurable {
  getBoundingClientRect(): DOMRect;
}

/**
 * A highlight's card, anchored to its mark: colour, style, annotation (Markdown with math), tags,
 * copy, move to a daily note and delete (both with Undo). Radix keeps focus inside while it is open.
 */
export default function HighlightCard({
  highlight,
  note,
  anchor,
  actions,
  onClose,
}: {
  highlight: Highlight;
  note: Pick<NoteSummary, 'title' | 'url'>;
  anchor: RefObject<Measurable | null>;
  actions: HighlightActions;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const accountId = useMe().data?.accountId;
  const draftKey = accountId ? annotationDraftKey(accountId, highlight.id) : null;
  const annotation = highlight.annotation?.message ?? '';
  // An annotation left unsaved (Esc, a click outside) reopens in the editor, where it was left.
  const [editing, setEditing] = useState(() => {
    const draft = draftKey ? readAnnotationDraft(draftKey) : null;
    return draft !== null && draft !== annotation;
  });
  const change = (patch: Parameters<HighlightActions['update']>[1]) =>
    actions.update(highlight.id, patch).catch((error) => notify.error(error, 'toast.operationFailed'));

  async function copy() {
    try {
      await copyText(highlightCopyText(highlight, note));
      notify.success('toast.copySuccess');
    } catch (error) {
      notify.error(error, 'toast.operationFailed');
    }
  }

  const isText = highlight.coreType === CoreType.highlight;
  return (
    <Popover.Root open onOpenChange={(open) => !open && onClose()}>
      <Popover.Anchor virtualRef={anchor} />
      <Popover.Portal>
        <Popover.Content
          className="highlight-card"
          data-testid="highlight-card"
          data-highlight-id={highlight.id}
          side="bottom"
          align="center"
          sideOffset={8}
          collisionPadding={8}
          aria-label={t('highlights.cardLabel')}
        >
          <ColourButtons
            className="card-row"
            testIdPrefix="card"
            pressed={highlight.slotId}
            onPick={(slot) => void change({ slotId: slot })}
          />
          {isText && (
            <StyleButtons
              className="card-row"
              testIdPrefix="card"
              pressed={highlight.style}
              slot={highlight.slotId}
              onPick={(style) => void change({ style })}
            />
          )}
          <div className="card-section">
            {editing ? (
              <AnnotationEditor
                initial={annotation}
                draftKey={draftKey}
                onSave={(value) => actions.update(highlight.id, { annotation: value })}
                onDone={() => setEditing(false)}
              />
            ) : annotation ? (
              <div className="annotation-shown">
                <AnnotationView markdown={annotation} />
                <button
                  type="button"
                  className="button annotation-edit"
                  data-testid="annotation-edit"
                  onClick={() => setEditing(true)}
                >
                  {t('common.edit')}
                </button>
              </div>
            ) : (
              <button
                type="button"
                className="button card-annotate"
                data-testid="annotation-edit"
                onClick={() => setEditing(true)}
              >
                {t('highlights.addAnnotation')}
              </button>
            )}
          </div>
          <div className="card-section">
            <TagChipsInput tags={highlight.tags} onChange={(tags) => void change({ tags })} />
          </div>
          <div className="card-actions">
            <button type="button" className="button" data-testid="highlight-copy" onClick={() => void copy()}>
              {t('common.copy')}
            </button>
            <MoveToDailyButton ids={[highlight.id]} />
            <button
              type="button"
              className="button button-danger"
              data-testid="highlight-delete"
              onClick={() => {
                onClose();
                if (draftKey) clearAnnotationDraft(draftKey);
                void actions.remove(highlight);
              }}
            >
              {t('common.delete')}
            </button>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
