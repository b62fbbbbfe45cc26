/**
 * The device flow's two random values, made by the app that connects (Margin's plugins, the
 * browser extension): its client id, which the confirmation page's address carries, and a short
 * code it shows the user and never puts in that address. The user enters the code on the page
 * and the app's polls carry it, so whoever else learns the address can neither confirm the app
 * with their own account nor collect its token.
 */

/** The query of a confirmation page whose app shows a code: the page asks for it. */
export const SHOWS_CODE_QUERY = 'code=shown';
/**
 * Where the browser extension's content script writes its code on the confirmation page it
 * opened (and only there), so the page can fill it in: the code never travels in an address.
 */
export const DEVICE_CODE_MARK = 'data-margin-device-code';

/** The page where the signed-in user confirms a client that shows a code, from the server's root. */
export function confirmPagePath(serviceId: number, clientId: string): string {
  return `/page/gentoken/${serviceId}/${encodeURIComponent(clientId)}?${SHOWS_CODE_QUERY}`;
}

const CLIENT_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** A fresh random client id (`[A-Za-z0-9_-]`, 24 symbols ≈ 144 bits). */
export function newClientId(length = 24): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
  // 64 symbols: the low 6 bits of a byte pick one without bias.
  return Array.from(bytes, (byte) => CLIENT_ID_ALPHABET[byte & 63]).join('');
}

/** Consonants without look-alikes: a code spells no word and reads the same in any font. */
export const DEVICE_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
/** 20⁸ ≈ 2.6·10¹⁰ codes; a ticket is burned after a few wrong ones. */
export const DEVICE_CODE_LENGTH = 8;
export const DEVICE_CODE_PATTERN = new RegExp(`^[${DEVICE_CODE_ALPHABET}]{${DEVICE_CODE_LENGTH}}$`);

/** A fresh code, each letter equally likely (bytes past the last whole multiple of 20 are drawn again). */
export function newDeviceCode(): string {
  const size = DEVICE_CODE_ALPHABET.length;
  const limit = 256 - (256 % size);
  let code = '';
  while (code.length < DEVICE_CODE_LENGTH) {
    for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(DEVICE_CODE_LENGTH * 2))) {
      if (byte < limit && code.length < DEVICE_CODE_LENGTH) code += DEVICE_CODE_ALPHABET[byte % size];
    }
  }
  return code;
}

/** How a code is shown: two groups of four (`BCDF-GHJK`). */
export function formatDeviceCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A code as the user typed it, in the form it was made: capitals, without spaces or hyphens. */
export function normalizeDeviceCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '');
}
