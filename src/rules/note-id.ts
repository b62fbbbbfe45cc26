import { zText } from './text.ts';

/** Highlight and note id alphabet: digits, hyphen and letters (63 symbols). */
export const NOTE_ID_ALPHABET = '0123456789-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const NOTE_ID_MIN_LENGTH = 8;
export const NOTE_ID_MAX_LENGTH = 64;
/** 21 symbols of 63 ≈ 125 bits: collisions are not a concern. */
export const NOTE_ID_DEFAULT_LENGTH = 21;

const NOTE_ID_PATTERN = new RegExp(`^[0-9A-Za-z-]{${NOTE_ID_MIN_LENGTH},${NOTE_ID_MAX_LENGTH}}$`);

export function isValidNoteId(id: unknown): id is string {
  return typeof id === 'string' && NOTE_ID_PATTERN.test(id);
}

/**
 * A random id from NOTE_ID_ALPHABET via crypto.getRandomValues (browser and Node). Bytes are
 * masked to 6 bits and the one value past the alphabet is rejected, so every symbol is equally likely.
 */
export function newNoteId(length: number = NOTE_ID_DEFAULT_LENGTH): string {
  if (!Number.isInteger(length) || length < NOTE_ID_MIN_LENGTH || length > NOTE_ID_MAX_LENGTH) {
    throw new RangeError(`note id length must be ${NOTE_ID_MIN_LENGTH}..${NOTE_ID_MAX_LENGTH}`);
  }
  let id = '';
  const bytes = new Uint8Array(length * 2);
  while (id.length < length) {
    globalThis.crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      const index = byte & 63;
      if (index < NOTE_ID_ALPHABET.length) id += NOTE_ID_ALPHABET[index];
      if (id.length === length) break;
    }
  }
  return id;
}

export const zNoteId = zText()
  .max(NOTE_ID_MAX_LENGTH, 'errors.invalidNoteId')
  .regex(NOTE_ID_PATTERN, { message: 'errors.invalidNoteId' });
