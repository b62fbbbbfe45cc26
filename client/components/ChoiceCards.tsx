import type { ReactNode } from 'react';
import '../styles/choice-cards.css';

export interface Choice<T extends string | number> {
  value: T;
  label: string;
  hint: string;
  /** A small picture of the choice, beside its words. */
  visual?: ReactNode;
}

/** A radio group laid out as cards: label, hint and an optional picture each. */
export function ChoiceCards<T extends string | number>({
  name,
  legend,
  choices,
  value,
  onChange,
  testIdPrefix,
  legendShown = false,
}: {
  name: string;
  legend: string;
  choices: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
  testIdPrefix: string;
  /** Shown above the cards; otherwise only read out (the page's heading already names them). */
  legendShown?: boolean;
}) {
  return (
    <fieldset className="choice-cards">
      <legend className={legendShown ? undefined : 'visually-hidden'}>{legend}</legend>
      {choices.map((choice) => (
        <label key={choice.value} className="choice-card" data-testid={`${testIdPrefix}-${choice.value}`}>
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={choice.value === value}
            onChange={() => onChange(choice.value)}
          />
          {choice.visual}
          <span className="choice-card-text">
            <span className="choice-card-label">{choice.label}</span>
            <span className="choice-card-hint">{choice.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
