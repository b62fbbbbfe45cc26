import { useQuery } from '@tanstack/react-query';

/** What /healthz answered and how long the round trip took; `unreachable` when nothing came back. */
export type HealthResult =
  | { status: 'ok' | 'failing'; checks: Record<string, boolean>; roundTripMs: number }
  | { status: 'unreachable' };

async function measureHealth(): Promise<HealthResult> {
  const started = performance.now();
  try {
    const response = await fetch('/healthz', { cache: 'no-store', headers: { accept: 'application/json' } });
    const body = (await response.json()) as { ok?: unknown; checks?: unknown };
    const roundTripMs = Math.round(performance.now() - started);
    const checks =
      body.checks && typeof body.checks === 'object'
        ? Object.fromEntries(Object.entries(body.checks).map(([name, passed]) => [name, passed === true]))
        : {};
    return { status: response.ok && body.ok === true ? 'ok' : 'failing', checks, roundTripMs };
  } catch {
    return { status: 'unreachable' };
  }
}

/** The server's health, asked for when the page opens and again on request. */
export function useHealth() {
  return useQuery({ queryKey: ['healthz'], queryFn: measureHealth, staleTime: 0, gcTime: 0, retry: false });
}
