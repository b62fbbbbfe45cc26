import { Dialog } from 'radix-ui';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderView } from '../../../src/schemas/membership.ts';
import { formatMoney } from './money.ts';
import { orderTitle } from './plan-names.ts';
import { QrCode } from './QrCode.tsx';
import { useOrderWatch } from './use-order-watch.ts';

/**
 * WeChat Pay and Alipay: the order's code to scan and its amount, while the order is read again
 * until it is paid (the dialog closes, the user is told) or closed. Closing the dialog stops it.
 */
export function QrPayDialog({ order, onClose }: { order: OrderView; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const watched = useOrderWatch(order.id, order);
  const current = watched.data ?? order;
  const codeUrl = order.checkout?.kind === 'qr' ? order.checkout.codeUrl : null;
  useEffect(() => {
    if (current.state === 'paid') onClose();
  }, [current.state, onClose]);
  const closed = current.state === 'closed' || current.state === 'refunded';
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog pay-dialog"
          data-testid="pay-dialog"
          data-state-of-order={current.state}
          // A stray click beside the code must not stop the wait for the payment.
          onInteractOutside={(event) => event.preventDefault()}
        >
          <Dialog.Title className="dialog-title">{t(`membership.qrTitle.${order.source}`)}</Dialog.Title>
          <Dialog.Description className="dialog-body">{orderTitle(order, t)}</Dialog.Description>
          <p className="pay-amount" data-testid="pay-amount">
            {formatMoney(order.amount, order.currency, i18n.language)}
          </p>
          <div className="qr-frame pay-qr" data-dimmed={closed || undefined}>
            {codeUrl && <QrCode text={codeUrl} label={t('membership.qrAlt')} />}
          </div>
          <p className="pay-status" role="status" data-testid="pay-status">
            {closed ? (
              t('membership.orderClosedWhilePaying')
            ) : (
              <>
                <span className="pay-pulse" aria-hidden="true" />
                {t('membership.waitingForPayment')}
              </>
            )}
          </p>
          <div className="dialog-actions">
            <Dialog.Close className="button" type="button">
              {closed ? t('common.close') : t('common.cancel')}
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
