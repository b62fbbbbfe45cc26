import type { ReactNode } from 'react';
import { type Form, useMessage } from './form.tsx';

/**
 * A set of checkboxes choosing some of `options`, kept in the options' own order. Each choice is
 * drawn by `choice(option, inputId)`, which labels the input (`htmlFor={inputId}`) and, when the
 * group has hints, gives one the id `${inputId}-hint`. The group is the form's field `name`: its
 * error is shown under the group and tied to it, and goes when the choice changes.
 */
export function CheckboxGroup<T extends string, F extends string, G extends string>(props: {
  legend: string;
  form: Form<F, G>;
  name: G;
  options: readonly T[];
  value: readonly T[];
  onChange(value: T[]): void;
  choice(option: T, inputId: string): ReactNode;
  hints?: boolean;
  className: string;
  listClassName?: string;
  testId: string;
}) {
  const message = useMessage();
  const { form, name, options, value, onChange } = props;
  const id = form.idFor(name);
  const error = form.errors[name];
  const choices = options.map((option) => {
    const inputId = `${id}-${option}`;
    return (
      <div key={option} className="choice">
        <input
          id={inputId}
          type="checkbox"
          name={name}
          value={option}
          checked={value.includes(option)}
          aria-describedby={props.hints ? `${inputId}-hint` : undefined}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            form.clear(name);
            onChange(
              event.target.checked
                ? options.filter((o) => o === option || value.includes(o))
                : value.filter((o) => o !== option),
            );
          }}
        />
        {props.choice(option, inputId)}
      </div>
    );
  });
  return (
    <fieldset
      id={id}
      className={`field-set checkbox-group ${props.className}`}
      aria-describedby={error ? `${id}-error` : undefined}
      data-testid={props.testId}
    >
      <legend>{props.legend}</legend>
      {props.listClassName ? <div className={props.listClassName}>{choices}</div> : choices}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {message(error)}
        </p>
      )}
    </fieldset>
  );
}
