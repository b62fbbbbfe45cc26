import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A set of checkboxes choosing some of `options`, kept in the options' own order. Each choice is
 * drawn by `choice(option, inputId)`, which labels the input (`htmlFor={inputId}`) and, when the
 * group has hints, gives one the id `${inputId}-hint`. `error` is a message key shown under the
 * group and tied to it.
 */
export function CheckboxGroup<T extends string>(props: {
  legend: string;
  name: string;
  options: readonly T[];
  value: readonly T[];
  onChange(value: T[]): void;
  error: string | null;
  choice(option: T, inputId: string): ReactNode;
  hints?: boolean;
  className: string;
  listClassName?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { options, value, onChange, error } = props;
  const choices = options.map((option) => {
    const inputId = `${id}-${option}`;
    return (
      <div key={option} className="choice">
        <input
          id={inputId}
          type="checkbox"
          name={props.name}
          value={option}
          checked={value.includes(option)}
          aria-describedby={props.hints ? `${inputId}-hint` : undefined}
          aria-invalid={error ? true : undefined}
          onChange={(event) =>
            onChange(
              event.target.checked
                ? options.filter((o) => o === option || value.includes(o))
                : value.filter((o) => o !== option),
            )
          }
        />
        {props.choice(option, inputId)}
      </div>
    );
  });
  return (
    <fieldset
      className={`field-set checkbox-group ${props.className}`}
      aria-describedby={error ? `${id}-error` : undefined}
      data-testid={props.testId}
    >
      <legend>{props.legend}</legend>
      {props.listClassName ? <div className={props.listClassName}>{choices}</div> : choices}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {t(error)}
        </p>
      )}
    </fieldset>
  );
}
