import { type KeyboardEvent, lazy, Suspense, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toggleTask } from '../../lib/task-lines.ts';
import { SaveStatus } from './SaveStatus.tsx';
import { useDailyNote } from './use-daily-note.ts';

const MarkdownPreview = lazy(() => import('./MarkdownPreview.tsx'));

/** Grows the textarea with its content so the page scrolls, not the box. */
function useAutoGrow(text: string) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const area = ref.current;
    if (!area || text === undefined) return;
    area.style.blockSize = 'auto';
    area.style.blockSize = `${area.scrollHeight + 2}px`;
  }, [text]);
  return ref;
}

/** The Markdown editor of one day's note, autosaving as the user types, with a preview toggle. */
export function DailyEditor({
  date,
  label,
  day,
}: {
  date: string;
  label: string;
  day: { text: string; version: number } | undefined;
}) {
  const { t } = useTranslation();
  const { text, status, edit, flushNow } = useDailyNote(date, day);
  const [preview, setPreview] = useState(false);
  const areaRef = useAutoGrow(preview ? '' : text);
  const editorId = useId();

  // A ticked task is a deliberate change: it is saved at once, not after the typing pause.
  function toggle(line: number, checked: boolean) {
    const next = toggleTask(text, line, checked);
    if (next === text) return;
    edit(next);
    flushNow();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Ctrl/Cmd+S saves at once instead of opening the browser's "save page".
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      flushNow();
    }
  }

  return (
    <div className="daily-editor" data-testid="daily-editor" data-date={date}>
      <div className="daily-editor-bar">
        <label htmlFor={editorId} className="daily-editor-label">
          {label}
        </label>
        <SaveStatus status={status} />
        <button
          type="button"
          className="button button-small"
          aria-pressed={preview}
          aria-controls={editorId}
          onClick={() => setPreview((p) => !p)}
          data-testid="daily-preview-toggle"
        >
          {preview ? t('common.edit') : t('daily.preview')}
        </button>
      </div>
      {preview ? (
        <Suspense fallback={<p className="muted">{t('app.loading')}</p>}>
          {text.trim() ? (
            <MarkdownPreview
              text={text}
              className="daily-preview"
              testId="daily-preview"
              onToggleTask={toggle}
            />
          ) : (
            <p className="muted daily-preview" data-testid="daily-preview">
              {t('daily.emptyPreview')}
            </p>
          )}
        </Suspense>
      ) : (
        <textarea
          id={editorId}
          ref={areaRef}
          className="daily-textarea"
          data-testid="daily-textarea"
          value={text}
          placeholder={t('daily.placeholder')}
          disabled={status === 'loading'}
          spellCheck
          dir="auto"
          onChange={(e) => edit(e.target.value)}
          onKeyDown={onKeyDown}
        />
      )}
    </div>
  );
}
