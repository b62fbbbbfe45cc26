import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from './CopyButton.tsx';

/**
 * A secret the server shows this once (a new token, a signing secret): its value with a copy
 * button, the warning that it will not be shown again, and Done. Focus starts on Copy: the
 * button that made it is gone, and copying is what to do next.
 */
export function ShownOnce(props: {
  title: string;
  warning: string;
  value: string;
  testIds: { box: string; value: string; copy: string };
  onDone(): void;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const copyTestId = props.testIds.copy;
  useEffect(
    () => box.current?.querySelector<HTMLButtonElement>(`[data-testid="${copyTestId}"]`)?.focus(),
    [copyTestId],
  );
  return (
    <div ref={box} className="new-token" role="status" data-testid={props.testIds.box}>
      <p className="new-token-title">
        <strong>{props.title}</strong>
      </p>
      <p className="new-token-warning">{props.warning}</p>
      <SecretValue value={props.value} testIds={props.testIds} />
      <div>
        <button type="button" className="button button-small" onClick={props.onDone}>
          {t('common.done')}
        </button>
      </div>
    </div>
  );
}

/** A secret's value, left to right whatever the page's direction, with its copy button. */
export function SecretValue(props: { value: string; testIds: { value: string; copy: string } }) {
  return (
    <div className="new-token-value">
      <code className="mono" dir="ltr" data-testid={props.testIds.value}>
        {props.value}
      </code>
      <CopyButton text={props.value} testId={props.testIds.copy} />
    </div>
  );
}
