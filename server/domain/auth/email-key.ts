import { createHash } from 'node:crypto';

/**
 * An email as Redis keys name it (rate limits, cooldowns): a digest, so a Redis that other
 * installs share lists nobody's address.
 */
export function emailKey(email: string): string {
  return createHash('sha256').update(email).digest('base64url').slice(0, 22);
}
