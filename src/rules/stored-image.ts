/** Where Margin answers with its stored copy of the picture at an address (or a 404 when it has none). */
export const STORED_IMAGE_BY_SOURCE_PATH = '/files/source';

/**
 * What an <img> loads for a picture known by the address it came from (an image highlight's): the
 * copy Margin stored, since the app loads pictures from nowhere else. Inline and same-site
 * addresses are already that.
 */
export function storedImageSrc(url: string): string {
  return /^https?:/i.test(url) ? `${STORED_IMAGE_BY_SOURCE_PATH}?url=${encodeURIComponent(url)}` : url;
}
