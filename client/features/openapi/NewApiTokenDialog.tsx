import { Dialog } from 'radix-ui';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { SecretValue } from '../../components/ShownOnce.tsx';

/**
 * The new token, shown once, with a copy button. Only Done or Escape closes it (a click beside
 * it would lose the token for good); focus starts on Copy.
 */
export function NewApiTokenDialog({ token, onDone }: { token: string; onDone(): void }) {
  const { t } = useTranslation();
  const content = useRef<HTMLDivElement>(null);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onDone()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          ref={content}
          className="dialog new-api-token"
          data-testid="new-api-token"
          onInteractOutside={(event) => event.preventDefault()}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            content.current?.querySelector<HTMLButtonElement>('[data-testid="copy-api-token"]')?.focus();
          }}
          // The caller decides where focus goes next (the form's name field).
          onCloseAutoFocus={(event) => event.preventDefault()}
        >
          <Dialog.Title className="dialog-title">{t('openapi.newTokenTitle')}</Dialog.Title>
          <Dialog.Description className="dialog-body">{t('openapi.newTokenWarning')}</Dialog.Description>
          <SecretValue value={token} testIds={{ value: 'new-api-token-value', copy: 'copy-api-token' }} />
          <div className="dialog-actions">
            <Dialog.Close className="button button-primary" type="button">
              {t('common.done')}
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
