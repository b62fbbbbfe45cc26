import { normalizeServer, type SyncApi, SyncApiError } from './api.ts';

const CLIENT_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** A fresh random client id (`[A-Za-z0-9_-]`, 24 symbols ≈ 144 bits). */
export function newClientId(length = 24): string {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  // 64 symbols: the low 6 bits of a byte pick one without bias.
  return Array.from(bytes, (byte) => CLIENT_ID_ALPHABET[byte & 63]).join('');
}

/** The page where the signed-in user confirms this client. */
export function confirmPageUrl(server: string, serviceId: number, clientId: string): string {
  return `${normalizeServer(server)}/page/gentoken/${serviceId}/${encodeURIComponent(clientId)}`;
}

export interface PollOptions {
  intervalMs: number;
  maxTries: number;
  sleep?: (ms: number) => Promise<void>;
  /** Stops the wait early (the user cancelled, the plugin unloaded). */
  signal?: AbortSignal;
}

export const DEFAULT_POLL: PollOptions = { intervalMs: 1000, maxTries: 60 };

export class DeviceFlowError extends Error {
  readonly reason: 'expired' | 'timeout' | 'cancelled';

  constructor(reason: DeviceFlowError['reason'], message: string) {
    super(message);
    this.name = 'DeviceFlowError';
    this.reason = reason;
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `/token` until the user confirms (200), the ticket is gone (410) or the tries run out. */
export async function pollForToken(api: SyncApi, clientId: string, options = DEFAULT_POLL): Promise<string> {
  const sleep = options.sleep ?? wait;
  for (let attempt = 0; attempt < options.maxTries; attempt++) {
    if (options.signal?.aborted) throw new DeviceFlowError('cancelled', 'Connecting was cancelled.');
    try {
      const token = await api.token(clientId);
      if (token) return token;
    } catch (error) {
      if (error instanceof SyncApiError && error.status === 410) {
        throw new DeviceFlowError('expired', error.message);
      }
      // Too many polls from this address (another plugin connecting beside this one): wait and go on.
      if (!(error instanceof SyncApiError && error.status === 429)) throw error;
    }
    await sleep(options.intervalMs);
  }
  throw new DeviceFlowError(
    'timeout',
    'No confirmation arrived in time: connect again and confirm in the browser.',
  );
}
