import { TOAST } from '../../src/constants.ts';
import { i18n } from '../i18n.ts';
import { errorMessage } from './errors.ts';

// sonner loads on the first toast (and with the lazily mounted <Toasts/> outlet), keeping it out
// of the home route's first load.
const show = (run: (toast: typeof import('sonner').toast) => void) => {
  void import('sonner').then(({ toast }) => run(toast));
};

/** Toasts per spec section 8: success lasts 600 ms, everything else 3000 ms. */
export const notify = {
  success(messageKey: string) {
    const message = i18n.t(messageKey);
    show((toast) => toast.success(message, { duration: TOAST.successMs }));
  },
  info(messageKey: string, params?: Record<string, string | number>) {
    const message = i18n.t(messageKey, params);
    show((toast) => toast(message, { duration: TOAST.defaultMs }));
  },
  error(error: unknown, fallbackKey?: string) {
    const message = errorMessage(error, i18n.t, fallbackKey);
    show((toast) => toast.error(message, { duration: TOAST.defaultMs }));
  },
};
