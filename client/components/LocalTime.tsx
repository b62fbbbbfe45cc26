import { useTranslation } from 'react-i18next';
import { useAfterFirstFrame } from '../lib/first-frame.ts';
import { type DateStyle, formatDate, formatDay } from '../lib/format-date.ts';
import { uiLanguageAttributes } from '../lib/language-attributes.ts';

type When = { date: Date | number; style?: DateStyle } | { day: string; style?: 'full' | 'medium' };

/**
 * A date written in the reader's language as an island of that language's direction: beside a
 * Latin site name or a number, or inside an article of the other direction, its digits and
 * separators keep their order (an Arabic "١٢‏/٩‏/٢٠٢٥" is not read as two numbers).
 */
export function LocalTime(
  props: When & {
    className?: string;
    title?: string;
    testId?: string;
    /** Written after the page's first frame (client/lib/first-frame.ts): for the first screen's dates. */
    deferred?: boolean;
  },
) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const written = useAfterFirstFrame() || !props.deferred;
  const machine = 'day' in props ? props.day : new Date(props.date).toISOString();
  const text = !written
    ? ''
    : 'day' in props
      ? formatDay(props.day, language, props.style)
      : formatDate(props.date, language, props.style);
  return (
    <time
      dateTime={machine}
      {...uiLanguageAttributes(language)}
      className={props.className}
      title={props.title}
      data-testid={props.testId}
    >
      {text}
    </time>
  );
}
