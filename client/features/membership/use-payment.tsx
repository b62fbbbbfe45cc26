import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useCallback, useState } from 'react';
import type { OrderView, PaymentProviderId } from '../../../src/schemas/membership.ts';
import { useTRPC } from '../../trpc.ts';
import { QrPayDialog } from './QrPayDialog.tsx';

/**
 * Paying an order: a checkout page (Stripe, Alipay's page) is gone to; a code (WeChat Pay,
 * Alipay) opens in a dialog that waits for the payment. `buy` makes the order first; `resume`
 * pays one made earlier and still unpaid.
 */
export function usePayment(): {
  buy(productId: string, provider: PaymentProviderId): void;
  resume(order: OrderView): void;
  /** The product and provider being ordered, or being gone to, until the page changes. */
  pending: { productId: string; provider: PaymentProviderId } | null;
  dialog: ReactNode;
} {
  const trpc = useTRPC();
  const [showing, setShowing] = useState<OrderView | null>(null);
  const [leaving, setLeaving] = useState(false);
  const resume = useCallback((order: OrderView) => {
    if (order.checkout?.kind === 'redirect') {
      setLeaving(true);
      window.location.assign(order.checkout.url);
    } else if (order.checkout?.kind === 'qr') setShowing(order);
  }, []);
  const create = useMutation(trpc.membership.createOrder.mutationOptions({ onSuccess: resume }));
  const close = useCallback(() => setShowing(null), []);
  const buy = useCallback(
    (productId: string, provider: PaymentProviderId) => create.mutate({ productId, provider }),
    [create.mutate],
  );
  return {
    buy,
    resume,
    pending: create.isPending || leaving ? (create.variables ?? null) : null,
    dialog: showing && <QrPayDialog key={showing.id} order={showing} onClose={close} />,
  };
}
