import express, { Router } from 'express';
import { PAYMENT_PROVIDERS, type PaymentProviderId } from '../../src/schemas/membership.ts';
import type { AppDeps } from '../deps.ts';
import { applyPaymentNotice } from '../domain/membership/orders.ts';
import { paymentProviders } from '../domain/membership/providers/index.ts';
import { PaymentSignatureError } from '../domain/membership/providers/types.ts';
import { errorFields, log } from '../log.ts';

/** Notifications are small JSON or form bodies; a megabyte is far more than any provider sends. */
const NOTIFICATION_MAX_BYTES = 1024 * 1024;

/**
 * `POST /pay/notify/:provider`: a payment provider's notification. The raw body is kept, since
 * every provider signs the exact bytes. A forged or unreadable one is refused and changes nothing;
 * a genuine one moves its order (once, whatever the number of copies) and is acknowledged in the
 * provider's own format.
 */
export function paymentRoutes(deps: AppDeps): Router {
  const router = Router();
  router.post(
    '/pay/notify/:provider',
    express.raw({ type: () => true, limit: NOTIFICATION_MAX_BYTES }),
    async (req, res) => {
      const id = req.params.provider;
      const known = (PAYMENT_PROVIDERS as readonly string[]).includes(id);
      const provider = known ? paymentProviders(deps.config.payments)[id as PaymentProviderId] : undefined;
      if (!provider) {
        res.status(404).end();
        return;
      }
      const send = (answer: ReturnType<typeof provider.accepted>) =>
        res.status(answer.status).type(answer.contentType).send(answer.body);
      try {
        const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const notice = await provider.readNotification({ headers: req.headers, rawBody });
        const outcome = await applyPaymentNotice(deps.orm.em.fork(), provider.id, notice);
        log.info('payment notification', { provider: provider.id, type: notice.type, outcome });
        // Only an order not (yet) found is worth the provider's retry; a mismatch is logged once and taken.
        send(outcome === 'unknownOrder' ? provider.refused() : provider.accepted());
      } catch (error) {
        if (error instanceof PaymentSignatureError)
          log.warn('payment notification refused', { provider: provider.id });
        else log.error('payment notification failed', { provider: provider.id, ...errorFields(error) });
        send(provider.refused());
      }
    },
  );
  return router;
}
