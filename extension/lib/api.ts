import { EXTENSION_CLIENT_HEADER } from '../../src/rules/extension.ts';

/** Why a call failed: no answer at all, a token the server no longer knows, or a refusal (its message). */
export class ApiError extends Error {
  readonly kind: 'offline' | 'unauthorized' | 'refused';
  readonly status: number;

  constructor(kind: ApiError['kind'], status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
  }
}

/** `https://margin.example.org/` → `https://margin.example.org`; null for anything not http(s). */
export function normalizeServer(input: string): string | null {
  try {
    const url = new URL(input.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

/** Edge runs the Chrome package and says so in its user agent. */
export function market(): string {
  return __MARKET__ === 'chrome' && /\bEdg\//.test(navigator.userAgent) ? 'edge' : __MARKET__;
}

/** A call that has had no answer this long is given up as if offline (its change waits to be sent). */
const ANSWER_WITHIN_MS = 30_000;
/** The page upload may be megabytes on a slow link. */
const UPLOAD_WITHIN_MS = 5 * 60_000;

async function request(url: string, init: RequestInit, within = ANSWER_WITHIN_MS): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(within) });
  } catch (error) {
    throw new ApiError('offline', 0, (error as Error).message);
  }
}

/** Calls the Open API as the extension; answers `data` of the spec's envelope. */
export async function callApi<T>(
  server: string,
  token: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await request(`${server}/openapi/v1${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      [EXTENSION_CLIENT_HEADER]: `${market()}/${__VERSION__}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json().catch(() => null)) as {
    code?: number;
    message?: string;
    data?: T;
  } | null;
  if (response.ok && envelope?.code === 1) return envelope.data as T;
  const message = envelope?.message ?? response.statusText;
  if (response.status === 401) throw new ApiError('unauthorized', 401, message);
  // The server's own trouble, or a proxy in between: worth another try later, as when offline.
  if (response.status >= 500 || response.status === 429)
    throw new ApiError('offline', response.status, message);
  throw new ApiError('refused', response.status, message);
}

/** The device flow's poll: the token once the user confirmed, null while waiting; throws when the ticket is gone. */
export async function pollToken(
  server: string,
  connecting: { clientId: string; userCode: string },
): Promise<string | null> {
  const response = await request(`${server}/api/sync/v1/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(connecting),
  });
  if (response.ok) return ((await response.json()) as { token: string }).token;
  if (response.status === 410) throw new ApiError('refused', 410, 'expired');
  return null;
}

/** POSTs the upload form the policy describes. */
export async function postUpload(
  policy: { host: string; fields: Record<string, string> },
  file: string,
): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(policy.fields)) form.append(name, value);
  if (!('success_action_status' in policy.fields)) form.append('success_action_status', '200');
  form.append('file', new Blob([file], { type: 'text/plain' }), 'page.txt');
  const response = await request(policy.host, { method: 'POST', body: form }, UPLOAD_WITHIN_MS);
  if (response.status !== 200)
    throw new ApiError(response.status >= 500 ? 'offline' : 'refused', response.status, 'upload refused');
}
