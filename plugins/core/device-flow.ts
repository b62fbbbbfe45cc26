import { confirmPagePath } from '../../src/rules/device-flow.ts';
import { normalizeServer, type SyncApi, SyncApiError } from './api.ts';

/** The page where the signed-in user confirms this client: it asks for the code the plugin shows. */
export function confirmPageUrl(server: string, serviceId: number, clientId: string): string {
  return `${normalizeServer(server)}${confirmPagePath(serviceId, clientId)}`;
}

export interface PollOptions {
  intervalMs: number;
  maxTries: number;
  sleep?: (ms: number) => Promise<void>;
  /** Stops the wait early (the user cancelled, the plugin unloaded). */
  signal?: AbortSignal;
}

/** Five minutes: time to sign in and type the code. */
export const DEFAULT_POLL: PollOptions = { intervalMs: 1000, maxTries: 300 };

export class DeviceFlowError extends Error {
  readonly reason: 'expired' | 'timeout' | 'cancelled';

  constructor(reason: DeviceFlowError['reason'], message: string) {
    super(message);
    this.name = 'DeviceFlowError';
    this.reason = reason;
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `/token` with the client's id and the code it shows until the user confirms (200), the
 * ticket is gone (410) or the tries run out.
 */
export async function pollForToken(
  api: SyncApi,
  client: { clientId: string; userCode: string },
  options = DEFAULT_POLL,
): Promise<string> {
  const sleep = options.sleep ?? wait;
  for (let attempt = 0; attempt < options.maxTries; attempt++) {
    if (options.signal?.aborted) throw new DeviceFlowError('cancelled', 'Connecting was cancelled.');
    try {
      const token = await api.token(client.clientId, client.userCode);
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
