import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A verification code as its mail job carries it: AES-256-GCM under a fresh key that only the
 * code's row keeps, so Redis alone cannot read it, and once the row forgets the key (the mail was
 * sent, the code used or deleted) nothing can.
 */
export function sealCode(code: string): { key: string; sealed: string } {
  const key = randomBytes(32);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
  return {
    key: key.toString('hex'),
    sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url'),
  };
}

/** The sealed code, or null when it was not sealed under this key. */
export function openCode(key: string, sealed: string): string | null {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'hex'), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
