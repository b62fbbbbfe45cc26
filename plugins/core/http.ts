/** The one kind of request the sync API needs; each shell serves it its own way. */
export interface HttpRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

/** Any status, never thrown for 4xx/5xx: the client reads the status itself. */
export interface HttpResponse {
  status: number;
  text: string;
}

export type HttpFn = (request: HttpRequest) => Promise<HttpResponse>;

/** The standard `fetch` (Node, browsers, Logseq's plugin frame). */
export const fetchHttp: HttpFn = async ({ url, method, headers, body }) => {
  const response = await fetch(url, { method, headers, body });
  return { status: response.status, text: await response.text() };
};
