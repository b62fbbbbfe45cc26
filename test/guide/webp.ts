import type { Page } from 'playwright-core';

/**
 * A PNG re-encoded as WebP by the browser's own encoder (canvas.toDataURL), at the best quality
 * that fits `maxBytes`, so no image tool needs installing. `page` is any blank page.
 */
export async function encodeWebp(page: Page, png: Buffer, maxBytes: number): Promise<Buffer> {
  const src = `data:image/png;base64,${png.toString('base64')}`;
  for (const quality of [0.92, 0.88, 0.84, 0.8, 0.75, 0.7, 0.6, 0.5]) {
    const dataUrl = await page.evaluate(
      async ({ src, quality }) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        canvas.getContext('2d')?.drawImage(image, 0, 0);
        return canvas.toDataURL('image/webp', quality);
      },
      { src, quality },
    );
    if (!dataUrl.startsWith('data:image/webp')) throw new Error('this browser cannot encode WebP');
    const webp = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
    if (webp.length <= maxBytes) return webp;
  }
  throw new Error(`no WebP quality fits ${maxBytes} bytes`);
}
