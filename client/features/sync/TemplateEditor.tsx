import { useMutation } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type IntegrationView,
  TEMPLATE_MAX,
  type TemplateName,
  type Templates,
} from '../../../src/schemas/sync.ts';
import { notify } from '../../lib/notify.ts';
import { useTRPC } from '../../trpc.ts';
import type { AppInfo } from './apps.ts';
import { failedTemplate, syncErrorMessage } from './sync-errors.ts';
import { TemplatePreview } from './TemplatePreview.tsx';
import { TemplateVariables } from './TemplateVariables.tsx';
import { useIntegrationUpdate } from './use-integration.ts';

type Drafts = Partial<Record<TemplateName, string>>;

function draftsOf(names: readonly TemplateName[], templates: Templates): Drafts {
  return Object.fromEntries(names.map((name) => [name, templates[name] ?? '']));
}

/** The templates to try or save: an empty one means the default, so it is left out. */
function writtenTemplates(drafts: Drafts): Templates {
  return Object.fromEntries(Object.entries(drafts).filter(([, source]) => source?.trim())) as Templates;
}

function TemplateField({
  name,
  value,
  defaultSource,
  error,
  onChange,
  textareaRef,
}: {
  name: TemplateName;
  value: string;
  /** The template used while this one is empty. */
  defaultSource: string;
  error: string | null;
  onChange(value: string): void;
  textareaRef?: (element: HTMLTextAreaElement | null) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const describedBy = error ? `${id}-error` : `${id}-hint`;
  return (
    <div className="field template-field" data-template={name}>
      <div className="template-field-head">
        <label htmlFor={id}>{t(`sync.templateLabel.${name}`)}</label>
        {value === '' ? (
          <button
            type="button"
            className="link-button"
            disabled={!defaultSource}
            onClick={() => onChange(defaultSource)}
            data-testid={`start-${name}`}
          >
            {t('sync.startFromDefault')}
          </button>
        ) : (
          <button
            type="button"
            className="link-button"
            onClick={() => onChange('')}
            data-testid={`reset-${name}`}
          >
            {t('sync.resetDefault')}
          </button>
        )}
      </div>
      <textarea
        ref={textareaRef}
        id={id}
        className={`template-input template-input-${name}`}
        data-testid={`template-${name}`}
        value={value}
        placeholder={t('sync.defaultPlaceholder')}
        maxLength={TEMPLATE_MAX}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        // Template code reads left to right; the empty field's hint in the reader's direction.
        dir={value ? 'ltr' : undefined}
        rows={name === 'title' ? 2 : 12}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid="template-error">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="field-hint">
          {t(`sync.templateHint.${name}`)}
        </p>
      )}
    </div>
  );
}

/**
 * The templates the app uses, each in a monospace editor ("Reset to default" empties it, and
 * empty means the default), with a live preview of a real note beside them. Saving trial-renders
 * every template on the server; a failure names the template and line, and nothing is saved.
 */
export function TemplateEditor({ info, integration }: { info: AppInfo; integration: IntegrationView }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const update = useIntegrationUpdate(info.app);
  const names = info.templates;
  const [drafts, setDrafts] = useState(() => draftsOf(names, integration.settings.templates));
  const [error, setError] = useState<{ template: TemplateName | null; message: string } | null>(null);
  const fields = useRef(new Map<TemplateName, HTMLTextAreaElement>());
  const saved = useMemo(() => draftsOf(names, integration.settings.templates), [names, integration]);
  const dirty = names.some((name) => (drafts[name] ?? '') !== (saved[name] ?? ''));
  const save = useMutation(
    trpc.sync.updateSettings.mutationOptions({
      onSuccess: (view) => {
        update.set(view);
        setDrafts(draftsOf(names, view.settings.templates));
        setError(null);
        notify.success('toast.saveSuccess');
      },
      onError: (failure) => {
        const template = failedTemplate(failure);
        setError({ template, message: syncErrorMessage(failure, t) });
        if (template) fields.current.get(template)?.focus();
      },
    }),
  );
  const change = (name: TemplateName, value: string) => {
    setDrafts((d) => ({ ...d, [name]: value }));
    if (error?.template === name) setError(null);
  };
  return (
    <form
      className="template-editor"
      noValidate
      data-testid="template-editor"
      onSubmit={(event) => {
        event.preventDefault();
        // Every template the app uses is sent: an empty one resets it to the default.
        const templates = Object.fromEntries(names.map((n) => [n, drafts[n] ?? ''])) as Templates;
        save.mutate({ app: info.app, settings: { templates } });
      }}
    >
      <div className="template-columns">
        <div className="template-fields">
          <p className="form-note">{t('sync.templatesIntro')}</p>
          {names.map((name) => (
            <TemplateField
              key={name}
              name={name}
              value={drafts[name] ?? ''}
              defaultSource={integration.defaultTemplates[name] ?? ''}
              error={error?.template === name ? error.message : null}
              onChange={(value) => change(name, value)}
              textareaRef={(element) => {
                if (element) fields.current.set(name, element);
                else fields.current.delete(name);
              }}
            />
          ))}
          {error && !error.template && (
            <p className="field-error" role="alert">
              {error.message}
            </p>
          )}
          <div className="template-actions">
            <button
              type="submit"
              className="button button-primary"
              disabled={save.isPending || !dirty}
              data-testid="save-templates"
            >
              {t('sync.saveTemplates')}
            </button>
            {dirty && <span className="form-note">{t('sync.unsaved')}</span>}
          </div>
          <TemplateVariables highlightsOnly={!names.includes('note')} />
        </div>
        <TemplatePreview info={info} templates={writtenTemplates(drafts)} />
      </div>
    </form>
  );
}
