import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isolate } from '../../../src/rules/bidi.ts';
import type { Templates } from '../../../src/schemas/sync.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { useTRPC } from '../../trpc.ts';
import type { AppInfo } from './apps.ts';
import { syncErrorMessage } from './sync-errors.ts';

/** How long typing must pause before the preview renders again. */
const PREVIEW_DEBOUNCE_MS = 400;

/**
 * What the tool receives for one real note (the latest with highlights; a sample when the user
 * has none), rendered on the server with the templates as they are being edited.
 */
export function TemplatePreview({ info, templates }: { info: AppInfo; templates: Templates }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  // Compared by content: the editor hands over a new object on every keystroke.
  const typed = JSON.stringify(templates);
  const settledJson = useDebounced(typed, PREVIEW_DEBOUNCE_MS);
  // A mutation, though it changes nothing: unsaved templates are too long for a query's URL.
  const { mutate, ...preview } = useMutation(trpc.sync.preview.mutationOptions({ retry: false }));
  useEffect(() => {
    mutate({ app: info.app, templates: JSON.parse(settledJson) as Templates });
  }, [mutate, info.app, settledJson]);
  // While a template does not render, the last output that did stays in view, dimmed.
  const lastGood = useRef(preview.data);
  if (preview.data) lastGood.current = preview.data;
  const data = preview.data ?? lastGood.current;
  const stale = preview.isPending || settledJson !== typed;
  return (
    <section
      className="template-preview"
      aria-labelledby="template-preview-title"
      data-testid="template-preview"
    >
      <div className="template-preview-head">
        <h3 id="template-preview-title" className="template-preview-title eyebrow">
          {t('sync.previewTitle')}
        </h3>
        <span className="form-note" aria-live="polite">
          {stale ? t('sync.previewRendering') : ''}
        </span>
      </div>
      {data && (
        <p className="form-note template-preview-note" data-testid="preview-note">
          {data.noteId
            ? t('sync.previewOf', { title: isolate(data.noteTitle || t('common.noTitle')) })
            : t('sync.previewSample')}
        </p>
      )}
      {preview.isError && (
        <p className="field-error" role="status" data-testid="preview-error">
          {syncErrorMessage(preview.error, t)}
        </p>
      )}
      {!preview.isError && data && data.unknownVariables.length > 0 && (
        <p className="field-error" role="status" data-testid="preview-unknown-variables">
          {t('sync.previewUnknownVariables', {
            names: data.unknownVariables.map((name) => isolate(name)).join(', '),
          })}
        </p>
      )}
      {data && info.files && data.fileName && (
        <p className="template-file" data-testid="preview-file">
          <span className="visually-hidden">{t('sync.previewFile')}</span>
          <code className="mono" dir="ltr">
            {data.fileName}
          </code>
        </p>
      )}
      {data ? (
        <pre
          className="template-output"
          data-testid="preview-markdown"
          data-stale={stale || preview.isError ? '' : undefined}
          dir="auto"
          // The output scrolls on its own: keyboard users reach it with Tab.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
          tabIndex={0}
        >
          {data.markdown || t('sync.previewEmpty')}
        </pre>
      ) : (
        !preview.isError && <p className="muted">{t('app.loading')}</p>
      )}
    </section>
  );
}
