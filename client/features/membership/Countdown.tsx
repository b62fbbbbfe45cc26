import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MINUTE_MS } from '../../../src/constants.ts';
import { countdown } from '../../../src/rules/countdown.ts';

/** The time left until `until`, read again each time a whole minute of it has passed. */
function useTimeLeft(until: Date, onEnd?: () => void): number {
  const [now, setNow] = useState(() => Date.now());
  const left = until.getTime() - now;
  useEffect(() => {
    if (left <= 0) {
      onEnd?.();
      return;
    }
    // Whole minutes are shown (rounded down), so the display changes once `left` drops below
    // the next whole minute.
    const timer = setTimeout(() => setNow(Date.now()), (left % MINUTE_MS) + 1);
    return () => clearTimeout(timer);
  }, [left, onEnd]);
  return left;
}

/** Days, hours and minutes until the membership ends (spec: the countdown), ticking each minute. */
export function Countdown({ until, onEnd }: { until: Date; onEnd?: () => void }) {
  const { t, i18n } = useTranslation();
  const left = countdown(useTimeLeft(until, onEnd));
  const number = new Intl.NumberFormat(i18n.language);
  const parts = [
    { unit: 'days', value: left.days },
    { unit: 'hours', value: left.hours },
    { unit: 'minutes', value: left.minutes },
  ] as const;
  const spoken = parts.map(
    (p) => `${number.format(p.value)} ${t(`membership.unit.${p.unit}`, { count: p.value })}`,
  );
  return (
    <div className="countdown" role="timer" aria-label={spoken.join(', ')} data-testid="countdown">
      {parts.map((part) => (
        <div key={part.unit} className="countdown-part" data-unit={part.unit} aria-hidden="true">
          <span className="countdown-value">{number.format(part.value)}</span>
          <span className="countdown-unit">{t(`membership.unit.${part.unit}`, { count: part.value })}</span>
        </div>
      ))}
    </div>
  );
}
