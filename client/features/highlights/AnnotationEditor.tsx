import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ANNOTATION_MAX } from '../../../src/schemas/highlights.ts';
import { errorData, errorMessage } from '../../lib/errors.ts';
import { onModEnter } from '../../lib/keys.ts';

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

/** The annotation textarea: Markdown with $…$ / $$…$$ math. A refused save shows why, and keeps the draft. */
export function AnnotationEditor({
  initial,
  onSave,
  onDone,
}: {
  initial: string;
  onSave(annotation: string | null): Promise<unknown>;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<EditorError | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();
  async function save() {
    setSaving(true);
    setError(null);
    try {
      await onSave(draft.trim() ? draft : null);
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
      <textarea
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
        onChange={(event) => setDraft(event.target.value)}
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
        <button type="button" className="button" onClick={onDone}>
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
