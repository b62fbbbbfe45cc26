import { AlertDialog } from 'radix-ui';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * An alert dialog that asks before something that cannot be taken back. `children` is the button
 * that opens it; its onClick may call preventDefault() to keep it closed (e.g. invalid input).
 * Focus starts on Cancel and returns to the button.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  danger = false,
  onConfirm,
  children,
}: {
  title: string;
  description?: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  children: ReactElement;
}) {
  const { t } = useTranslation();
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>{children}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content
          className="dialog"
          data-testid="confirm-dialog"
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          {description && (
            <AlertDialog.Description className="dialog-body">{description}</AlertDialog.Description>
          )}
          <div className="dialog-actions">
            <AlertDialog.Cancel className="button">{t('common.cancel')}</AlertDialog.Cancel>
            <AlertDialog.Action
              className={danger ? 'button button-danger-solid' : 'button button-primary'}
              onClick={onConfirm}
            >
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
