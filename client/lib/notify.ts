import { toast } from 'sonner';
import { TOAST } from '../../src/constants.ts';
import { i18n } from '../i18n.ts';
import { errorMessage } from './errors.ts';

/** Toasts per spec section 8: success lasts 600 ms, everything else 3000 ms. */
export const notify = {
  success(messageKey: string) {
    toast.success(i18n.t(messageKey), { duration: TOAST.successMs });
  },
  info(messageKey: string, params?: Record<string, string | number>) {
    toast(i18n.t(messageKey, params), { duration: TOAST.defaultMs });
  },
  error(error: unknown, fallbackKey?: string) {
    toast.error(errorMessage(error, i18n.t, fallbackKey), { duration: TOAST.defaultMs });
  },
};
