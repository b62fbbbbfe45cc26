import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ANNOTATION_MAX } from '../../../src/schemas/highlights.ts';
import { errorData, errorMessage } from '../../lib/errors.ts';
import { onModEnter } from '../../lib/keys.ts';
import { clearAnnotationDraft, readAnnotationDraft, writeAnnotationDraft } from './annotation-draft.ts';

interface EditorError {
  message: string;
  detail: string | null;
}

function editorError(error: unknown, t: Parameters<typeof errorMessage>[1]): EditorError {
  const params = errorData(error)?.params;
  return {
    message: errorMessage(error, t, 'toast.operationFailed'),
    detail: typeof params?.detail === 'string' ? params.detail : null,
  };
}

/**
 * The annotation textarea: Markdown with $…$ / $$…$$ math. A refused save shows why, and keeps the
 * draft. With a `draftKey`, what is typed is kept as a draft (annotation-draft.ts) until it is
 * saved or cancelled, and an editor opened over a kept draft starts from it and says so.
 */
export function AnnotationEditor({
  initial,
  draftKey,
  onSave,
  onDone,
}: {
  initial: string;
  draftKey?: string | null;
  onSave(annotation: string | null): Promise<unknown>;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const [kept] = useState(() => {
    const stored = draftKey ? readAnnotationDraft(draftKey) : null;
    return stored !== null && stored !== initial ? stored : null;
  });
  const [draft, setDraft] = useState(kept ?? initial);
  const [restored, setRestored] = useState(kept !== null);
  const [error, setError] = useState<EditorError | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  function edit(text: string) {
    setDraft(text);
    if (!draftKey) return;
    if (text === initial) clearAnnotationDraft(draftKey);
    else writeAnnotationDraft(draftKey, text);
  }
  function discard() {
    edit(initial);
    setRestored(false);
    input.current?.focus();
  }
  function cancel() {
    if (draftKey) clearAnnotationDraft(draftKey);
    onDone();
  }
  async function save() {
    setSaving(true);
    setError(null);
    try {
      await onSave(draft.trim() ? draft : null);
      if (draftKey) clearAnnotationDraft(draftKey);
      onDone();
    } catch (caught) {
      setError(editorError(caught, t));
    } finally {
      setSaving(false);
    }
  }
  return (
    <form
      className="annotation-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {t('highlights.annotation')}
      </label>
      {restored && (
        <div className="annotation-draft" role="status" data-testid="annotation-draft">
          <span>{t('highlights.draftRestored')}</span>
          <button
            type="button"
            className="button button-small"
            data-testid="annotation-draft-discard"
            onClick={discard}
          >
            {t('highlights.discardDraft')}
          </button>
        </div>
      )}
      <textarea
        ref={input}
        id={id}
        data-testid="annotation-input"
        value={draft}
        rows={4}
        maxLength={ANNOTATION_MAX}
        placeholder={t('highlights.annotationPlaceholder')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        // biome-ignore lint/a11y/noAutofocus: the editor opens because the user asked to write
        autoFocus
        onChange={(event) => edit(event.target.value)}
        onKeyDown={onModEnter(() => void save())}
      />
      {error && (
        <div id={`${id}-error`} className="annotation-error" role="alert" data-testid="annotation-error">
          <p className="field-error">{error.message}</p>
          {error.detail && (
            <p className="annotation-error-detail" data-testid="annotation-error-detail">
              {error.detail}
            </p>
          )}
        </div>
      )}
      <div className="annotation-editor-actions">
        <button type="button" className="button" data-testid="annotation-cancel" onClick={cancel}>
          {t('common.cancel')}
        </button>
        <button
          type="submit"
          className="button button-primary"
          disabled={saving}
          data-testid="annotation-save"
        >
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
