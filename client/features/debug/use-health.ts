import { useQuery } from '@tanstack/react-query';

/**
 * Whether /healthz said the server is well and how long the round trip took; `unreachable` when
 * nothing came back. Which check failed the server tells only its operator.
 */
export type HealthResult = { status: 'ok' | 'failing'; roundTripMs: number } | { status: 'unreachable' };

async function measureHealth(): Promise<HealthResult> {
  const started = performance.now();
  try {
    const response = await fetch('/healthz', { cache: 'no-store', headers: { accept: 'application/json' } });
    const body = (await response.json()) as { ok?: unknown };
    const roundTripMs = Math.round(performance.now() - started);
    return { status: response.ok && body.ok === true ? 'ok' : 'failing', roundTripMs };
  } catch {
    return { status: 'unreachable' };
  }
}

/** The server's health, asked for when the page opens and again on request. */
export function useHealth() {
  return useQuery({ queryKey: ['healthz'], queryFn: measureHealth, staleTime: 0, gcTime: 0, retry: false });
}
