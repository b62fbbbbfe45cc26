import { requestUrl } from 'obsidian';
import type { HttpFn } from '../core/http.ts';

/** HTTP through Obsidian's `requestUrl`: no CORS in the way, and it works on mobile too. */
export const obsidianHttp: HttpFn = async ({ url, method, headers, body }) => {
  const response = await requestUrl({ url, method, headers, body, throw: false });
  return { status: response.status, text: response.text };
};
