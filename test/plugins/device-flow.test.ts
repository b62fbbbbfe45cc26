import { describe, expect, test } from 'vitest';
import { type SyncApi, SyncApiError } from '../../plugins/core/api.ts';
import { pollForToken } from '../../plugins/core/device-flow.ts';

/** A token endpoint that answers with `answers` in turn (a string is the token, null "pending"). */
function tokenEndpoint(answers: (string | null | SyncApiError)[]) {
  let calls = 0;
  const api = {
    async token() {
      const answer = answers[Math.min(calls++, answers.length - 1)];
      if (answer instanceof SyncApiError) throw answer;
      return answer ?? null;
    },
  } as unknown as SyncApi;
  return { api, calls: () => calls };
}

const options = { intervalMs: 0, maxTries: 10, sleep: async () => {} };
const client = { clientId: 'client-12345678', userCode: 'BCDFGHJK' };

describe('the device flow poll', () => {
  test('waits while pending and through a rate limit, then takes the token', async () => {
    const busy = new SyncApiError(429, 'too_many_requests', 'Too many requests');
    const endpoint = tokenEndpoint([null, busy, busy, null, 'msync_token']);
    await expect(pollForToken(endpoint.api, client, options)).resolves.toBe('msync_token');
    expect(endpoint.calls()).toBe(5);
  });

  test('an expired ticket ends it; other errors too', async () => {
    const expired = tokenEndpoint([new SyncApiError(410, 'expired', 'Expired')]);
    await expect(pollForToken(expired.api, client, options)).rejects.toMatchObject({
      reason: 'expired',
    });
    const broken = tokenEndpoint([new SyncApiError(500, 'internal', 'Broken')]);
    await expect(pollForToken(broken.api, client, options)).rejects.toMatchObject({ status: 500 });
  });
});
