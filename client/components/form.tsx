import { type InputHTMLAttributes, type ReactNode, useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { NICKNAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from '../../src/schemas/auth.ts';
import { errorData, fieldErrorKeys } from '../lib/errors.ts';
import { notify } from '../lib/notify.ts';

/** Zod issue messages and server field errors carry only a key; these keys need numbers. */
const MESSAGE_PARAMS: Record<string, Record<string, number>> = {
  'errors.passwordTooShort': { min: PASSWORD_MIN },
  'errors.passwordTooLong': { max: PASSWORD_MAX },
  'errors.nicknameTooLong': { max: NICKNAME_MAX },
};

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * A form's text fields `F`, whose values it keeps, and its checkbox groups `G`, whose values the
 * form's owner keeps: both get their errors and focus from here.
 */
export interface Form<F extends string, G extends string = never> {
  values: Record<F, string>;
  errors: FieldErrors<F | G>;
  set(name: F, value: string): void;
  /** The user changed the field: its error goes. */
  clear(name: F | G): void;
  /** The id of a text field's input, or of the element holding a group's inputs. */
  idFor(name: F | G): string;
  focus(name: F | G): void;
  /**
   * Runs a shared zod schema over `input`. Returns its output, or shows each issue under its
   * field, focuses the first one and returns undefined.
   */
  check<S extends z.ZodType>(schema: S, input: unknown): z.output<S> | undefined;
  /**
   * A failed call: the server's field errors, and message keys listed in `fieldOfMessage`, go
   * under their fields; anything else becomes a toast.
   */
  fail(error: unknown): void;
  /** As `fail`, without the toast: false when nothing in the error was about a field here. */
  showFieldErrors(error: unknown): boolean;
  reset(): void;
}

/**
 * Form state for text fields (`initial`) and checkbox groups (`groups`, named as their inputs
 * are), with the same validation messages on the client and the server. The first field in
 * error is focused: text fields before groups, each in the order given.
 */
export function useForm<F extends string, G extends string = never>(
  initial: Record<F, string>,
  fieldOfMessage: Partial<Record<string, NoInfer<F | G>>> = {},
  groups: readonly G[] = [],
): Form<F, G> {
  const prefix = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<F | G>>({});
  const [names] = useState(() => [...(Object.keys(initial) as F[]), ...groups]);
  const [groupNames] = useState<ReadonlySet<F | G>>(() => new Set(groups));

  const idFor = useCallback((name: F | G) => `${prefix}-${name}`, [prefix]);
  const focus = useCallback(
    (name: F | G) => {
      const element = document.getElementById(idFor(name));
      // A group is focused on its first checkbox.
      const target = groupNames.has(name) ? element?.querySelector(`input[name="${name}"]`) : element;
      if (target instanceof HTMLElement) target.focus();
    },
    [idFor, groupNames],
  );
  const clear = (name: F | G) => setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));

  const show = useCallback(
    (next: FieldErrors<F | G>) => {
      setErrors(next);
      const first = names.find((n) => next[n]);
      // After the render that marks the field invalid, so its description is read out.
      if (first) requestAnimationFrame(() => focus(first));
    },
    [names, focus],
  );

  const showFieldErrors = (error: unknown) => {
    const next: FieldErrors<F | G> = {};
    for (const [path, key] of Object.entries(fieldErrorKeys(error))) {
      const name = path.split('.')[0] as F | G;
      if (names.includes(name)) next[name] ??= key;
    }
    const messageKey = errorData(error)?.messageKey;
    const owner = messageKey ? fieldOfMessage[messageKey] : undefined;
    if (owner && messageKey) next[owner] ??= messageKey;
    if (Object.keys(next).length === 0) return false;
    show(next);
    return true;
  };

  return {
    values,
    errors,
    idFor,
    focus,
    clear,
    set: (name, value) => {
      setValues((v) => ({ ...v, [name]: value }));
      clear(name);
    },
    check: (schema, input) => {
      const result = schema.safeParse(input);
      if (result.success) {
        setErrors({});
        return result.data;
      }
      const next: FieldErrors<F | G> = {};
      for (const issue of result.error.issues) {
        const name = String(issue.path[0] ?? '') as F | G;
        if (names.includes(name)) next[name] ??= issue.message;
      }
      show(next);
      return undefined;
    },
    showFieldErrors,
    fail: (error) => {
      if (!showFieldErrors(error)) notify.error(error);
    },
    reset: () => {
      setValues(initial);
      setErrors({});
    },
  };
}

/** A translated validation message, with the numbers its key needs. */
export function useMessage(): (key: string) => string {
  const { t } = useTranslation();
  return (key) => t(key, MESSAGE_PARAMS[key]);
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'form' | 'name' | 'value' | 'onChange' | 'id'>;

/** A labelled input whose error and hint are tied to it (aria-invalid, aria-describedby). */
export function TextField<F extends string>({
  form,
  name,
  label,
  hint,
  action,
  ...input
}: InputProps & {
  form: Form<F>;
  name: F;
  label: string;
  hint?: string;
  /** A button beside the input, such as "Get code". */
  action?: ReactNode;
}) {
  const message = useMessage();
  const id = form.idFor(name);
  const error = form.errors[name];
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const control = (
    <input
      id={id}
      name={name}
      value={form.values[name]}
      onChange={(event) => form.set(name, event.target.value)}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      {...input}
    />
  );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {action ? (
        <div className="field-row">
          {control}
          {action}
        </div>
      ) : (
        control
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {message(error)}
        </p>
      )}
      {hint && !error && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
