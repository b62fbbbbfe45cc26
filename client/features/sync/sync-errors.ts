import type { TFunction } from 'i18next';
import { isolate } from '../../../src/rules/bidi.ts';
import type { TemplateName } from '../../../src/schemas/sync.ts';
import { errorData, errorMessage } from '../../lib/errors.ts';

const TEMPLATE_INVALID = 'errors.templateInvalid';
/** The errors that name the template they happened in (`params.template`). */
const TEMPLATE_ERRORS = new Set([TEMPLATE_INVALID, 'errors.templateOutputTooLarge']);

/** The template a trial render failed in, when `error` is such a failure. */
export function failedTemplate(error: unknown): TemplateName | null {
  const data = errorData(error);
  if (!data?.messageKey || !TEMPLATE_ERRORS.has(data.messageKey)) return null;
  const name = data.params?.template;
  return name === 'title' || name === 'note' || name === 'highlight' ? name : null;
}

/**
 * The translated message of a sync error. A template error names the template in the reader's
 * language ("The note template has an error on line 3: …", "The note template produces more
 * than 1 MB of text."), not by its code name.
 */
export function syncErrorMessage(error: unknown, t: TFunction): string {
  const template = failedTemplate(error);
  if (!template) return errorMessage(error, t);
  const data = errorData(error);
  const params = data?.params ?? {};
  return t(data?.messageKey ?? TEMPLATE_INVALID, {
    ...params,
    template: t(`sync.templateName.${template}`),
    // The engine's words (English, with template code) keep their order inside an Arabic sentence.
    ...(params.detail !== undefined && { detail: isolate(String(params.detail)) }),
  });
}

/** A stored message key (an integration's last error), translated; unknown keys read as generic. */
export function storedErrorMessage(key: string, t: TFunction): string {
  return t(key, { defaultValue: t('errors.generic') });
}
