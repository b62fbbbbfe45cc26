import type { z } from 'zod';
import type {
  SyncDownloadResponse,
  SyncInitResponse,
  zSyncApiError,
  zSyncTokenResponse,
} from '../../src/schemas/sync.ts';
import type { HttpFn } from './http.ts';

type ErrorBody = z.infer<typeof zSyncApiError>;
type TokenBody = z.infer<typeof zSyncTokenResponse>;

/** A refusal from the server: its HTTP status, stable code and message (in the user's language). */
export class SyncApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'SyncApiError';
    this.status = status;
    this.code = code;
  }
}

/** The server's base URL as the user typed it, without trailing slashes. */
export function normalizeServer(server: string): string {
  return server.trim().replace(/\/+$/, '');
}

/** Margin's pull API, `<server>/api/sync/v1`: every call a JSON POST. */
export class SyncApi {
  private readonly http: HttpFn;
  private readonly base: string;
  private readonly bearer: string | null;

  constructor(http: HttpFn, server: string, bearer: string | null = null) {
    this.http = http;
    this.base = `${normalizeServer(server)}/api/sync/v1`;
    this.bearer = bearer;
  }

  /**
   * One step of the device flow: the token once the user confirmed, null while waiting. The
   * first call registers the code the plugin shows; only a call with that code gets the token.
   */
  async token(clientId: string, userCode?: string): Promise<string | null> {
    const { status, body } = await this.post<TokenBody>('/token', { clientId, userCode });
    return status === 202 ? null : body.token;
  }

  async init(clientId: string, fromStart: boolean): Promise<SyncInitResponse> {
    return (await this.post<SyncInitResponse>('/init', { clientId, fromStart })).body;
  }

  async download(clientId: string, cursor: string | null): Promise<SyncDownloadResponse> {
    return (await this.post<SyncDownloadResponse>('/download', { clientId, cursor, noteIds: [] })).body;
  }

  async ack(clientId: string, cursor: string): Promise<void> {
    await this.post('/ack', { clientId, cursor });
  }

  private async post<T>(path: string, payload: unknown): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
    };
    if (this.bearer) headers.Authorization = `Bearer ${this.bearer}`;
    const { status, text } = await this.http({
      url: `${this.base}${path}`,
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
    });
    const body = parseJson(text);
    if (status >= 200 && status < 300) return { status, body: body as T };
    const error = (body as Partial<ErrorBody> | undefined)?.error;
    throw new SyncApiError(status, error?.code ?? `http_${status}`, error?.message ?? `HTTP ${status}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
