import { navigate } from 'wouter/use-browser-location';
import { TOAST } from '../../src/constants.ts';
import { i18n, loadTranslations } from '../i18n.ts';
import { errorMessage, upgradePathOf } from './errors.ts';

// sonner and the <Toasts/> outlet load with the first toast, keeping them out of the home route's
// first load (sonner shows a toast made before its outlet mounted).
let outletWanted = false;
const outletListeners = new Set<() => void>();

/** Whether a toast has been asked for, so the outlet must be mounted. */
export function toastOutletWanted(): boolean {
  return outletWanted;
}

export function onToastOutletWanted(listener: () => void): () => void {
  outletListeners.add(listener);
  return () => outletListeners.delete(listener);
}

/** Runs `run` with sonner's `toast` once loaded, for toasts beyond `notify`'s (actions, links). */
export function toastWith(run: (toast: typeof import('sonner').toast) => void): void {
  if (!outletWanted) {
    outletWanted = true;
    for (const listener of outletListeners) listener();
  }
  void import('sonner').then(({ toast }) => run(toast));
}

/** Toasts: success lasts 600 ms, everything else 3000 ms. */
export const notify = {
  success(messageKey: string) {
    const message = i18n.t(messageKey);
    toastWith((toast) => toast.success(message, { duration: TOAST.successMs }));
  },
  info(messageKey: string, params?: Record<string, string | number>) {
    const message = i18n.t(messageKey, params);
    toastWith((toast) => toast(message, { duration: TOAST.defaultMs }));
  },
  /**
   * A PRO-only feature's refusal ("Only for PRO user", "Membership expired") offers Upgrade. The
   * error words load with the first error, not with the page.
   */
  error(error: unknown, fallbackKey?: string) {
    void loadTranslations('errorToast')
      .catch(() => undefined)
      .then(() => {
        const message = errorMessage(error, i18n.t, fallbackKey);
        const upgrade = upgradePathOf(error);
        const action = upgrade && { label: i18n.t('membership.upgrade'), onClick: () => navigate(upgrade) };
        toastWith((toast) => toast.error(message, { duration: TOAST.defaultMs, ...(action && { action }) }));
      });
  },
};
