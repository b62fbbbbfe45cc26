import { CopyButton } from './CopyButton.tsx';

/** A value to type into another app (a URL, a header, this server's address), inline with its copy button. */
export function InlineValue({
  value,
  testId,
  copyLabel,
}: {
  value: string;
  testId: string;
  copyLabel?: string;
}) {
  return (
    <span className="inline-value">
      <code className="mono value-code" dir="ltr" data-testid={testId}>
        {value}
      </code>
      <CopyButton text={value} label={copyLabel} />
    </span>
  );
}
