import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

// Real images for the tests that store them: PNG and GIF made here (of any size, one colour),
// JPEG and WebP as Chromium encoded them (test/helpers/images/).

const DIR = path.join(import.meta.dirname, 'images');

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A `width`×`height` PNG of one colour. */
export function pngImage(
  width: number,
  height: number,
  rgb: [number, number, number] = [70, 130, 180],
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A `width`×`height` GIF of one colour. Its LZW stream never grows the code table (a clear code
 * before every pair of pixels), so every code stays 3 bits wide.
 */
export function gifImage(width: number, height: number): Buffer {
  const codes: number[] = [];
  for (let i = 0; i < width * height; i += 2) codes.push(4, 0, ...(i + 1 < width * height ? [0] : []));
  codes.push(5);
  const packed: number[] = [];
  let bits = 0;
  let used = 0;
  for (const code of codes) {
    bits |= code << used;
    used += 3;
    while (used >= 8) {
      packed.push(bits & 0xff);
      bits >>= 8;
      used -= 8;
    }
  }
  if (used > 0) packed.push(bits & 0xff);
  const blocks: number[] = [];
  for (let i = 0; i < packed.length; i += 255) {
    const part = packed.slice(i, i + 255);
    blocks.push(part.length, ...part);
  }
  const size = (n: number) => [n & 0xff, n >> 8];
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    ...size(width),
    ...size(height),
    0x80,
    0,
    0,
    ...[200, 120, 40, 255, 255, 255],
    0x2c,
    0,
    0,
    0,
    0,
    ...size(width),
    ...size(height),
    0,
    2,
    ...blocks,
    0,
    0x3b,
  ]);
}

/** A 240×160 JPEG. */
export const jpegImage = () => fs.readFileSync(path.join(DIR, 'photo.jpg'));
/** A 200×120 WebP. */
export const webpImage = () => fs.readFileSync(path.join(DIR, 'photo.webp'));
