import { Dialog } from 'radix-ui';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors.ts';

/**
 * A small dialog asking for a name (new folder, rename a folder or a tag). `validate` returns a
 * translated message or null; a refusal from the server shows under the field too.
 */
export function NameDialog(props: {
  title: string;
  label: string;
  initial?: string;
  submitLabel: string;
  testId: string;
  validate?(name: string): string | null;
  onSubmit(name: string): Promise<unknown>;
  onClose(): void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState(props.initial ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && props.onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" data-testid={props.testId} aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">{props.title}</Dialog.Title>
          <form
            className="form name-form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              const problem = props.validate?.(name) ?? null;
              setError(problem);
              if (problem || busy) return;
              setBusy(true);
              props
                .onSubmit(name.trim())
                .then(props.onClose)
                .catch((cause: unknown) => setError(errorMessage(cause, t)))
                .finally(() => setBusy(false));
            }}
          >
            <label className="field" htmlFor={`${id}-name`}>
              {props.label}
              <input
                id={`${id}-name`}
                data-testid="name-input"
                value={name}
                autoComplete="off"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => {
                  setName(event.target.value);
                  setError(null);
                }}
              />
            </label>
            {props.children}
            {error && (
              <p id={`${id}-error`} className="field-error" role="alert" data-testid="name-error">
                {error}
              </p>
            )}
            <div className="dialog-actions">
              <Dialog.Close className="button" type="button">
                {t('common.cancel')}
              </Dialog.Close>
              <button
                type="submit"
                className="button button-primary"
                disabled={busy}
                data-testid="name-submit"
              >
                {props.submitLabel}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
