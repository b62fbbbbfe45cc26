import { zText } from './text.ts';

/** The spec's id alphabet (highlights, annotations, folders, notes): digits, hyphen and letters (63 symbols). */
export const ID_ALPHABET = '0123456789-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const ID_MIN_LENGTH = 8;
export const ID_MAX_LENGTH = 64;
/** 21 symbols of 63 ≈ 125 bits: collisions are not a concern. */
export const ID_DEFAULT_LENGTH = 21;

const ID_PATTERN = new RegExp(`^[0-9A-Za-z-]{${ID_MIN_LENGTH},${ID_MAX_LENGTH}}$`);

export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id);
}

/**
 * A random id from ID_ALPHABET via crypto.getRandomValues (browser and Node). Bytes are
 * masked to 6 bits and the one value past the alphabet is rejected, so every symbol is equally likely.
 */
export function newId(length: number = ID_DEFAULT_LENGTH): string {
  if (!Number.isInteger(length) || length < ID_MIN_LENGTH || length > ID_MAX_LENGTH) {
    throw new RangeError(`id length must be ${ID_MIN_LENGTH}..${ID_MAX_LENGTH}`);
  }
  let id = '';
  const bytes = new Uint8Array(length * 2);
  while (id.length < length) {
    globalThis.crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      const index = byte & 63;
      if (index < ID_ALPHABET.length) id += ID_ALPHABET[index];
      if (id.length === length) break;
    }
  }
  return id;
}

/** A highlight id; the client may make it, so a retried create is harmless. */
export const zHighlightId = zText()
  .max(ID_MAX_LENGTH, 'errors.invalidHighlightId')
  .regex(ID_PATTERN, { message: 'errors.invalidHighlightId' });

/** The id of a stored note or folder: an id the client did not make names nothing when malformed. */
export const zStoredId = zText()
  .max(32, 'errors.notFound')
  .regex(/^[0-9A-Za-z-]{8,32}$/, 'errors.notFound');
