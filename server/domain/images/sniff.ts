import { imageSize } from 'image-size';

/** The image types Margin stores and serves: raster only (SVG carries script), each with its file extension. */
export const STORED_IMAGE_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
} as const;
export type StoredImageType = keyof typeof STORED_IMAGE_TYPES;

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length &&
  Buffer.from(bytes.subarray(at, at + text.length)).toString('latin1') === text;

/**
 * What the bytes are by their magic numbers, whatever the server said: a page served as
 * image/png, or an SVG, is no image here.
 */
export function sniffImageType(bytes: Uint8Array): StoredImageType | null {
  if (bytes[0] === 0x89 && ascii(bytes, 1, 'PNG\r\n\x1a\n')) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return 'image/gif';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return 'image/webp';
  // An ISO-BMFF file whose major brand is AVIF (a still image or a sequence).
  if (ascii(bytes, 4, 'ftypavif') || ascii(bytes, 4, 'ftypavis')) return 'image/avif';
  return null;
}

/** Larger than any screen needs; a decoder bomb's header claims more. */
const MAX_SIDE = 30_000;

export interface ImageFacts {
  type: StoredImageType;
  width: number;
  height: number;
}

/**
 * The image's type and its size as a browser lays it out (EXIF rotations of a quarter turn swap
 * the sides), or null when the bytes are not a whole image of a type we store.
 */
export function imageFacts(bytes: Uint8Array): ImageFacts | null {
  const type = sniffImageType(bytes);
  if (!type) return null;
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return null;
  }
  const { width, height } = size;
  if (!width || !height || width > MAX_SIDE || height > MAX_SIDE) return null;
  const quarterTurn = (size.orientation ?? 1) >= 5;
  return { type, width: quarterTurn ? height : width, height: quarterTurn ? width : height };
}
