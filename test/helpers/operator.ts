/** A METRICS_TOKEN for the tests that read /metrics or /healthz's details (long enough for server/config.ts). */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789abcdef';

/** The header that makes a request the operator's on the app's own port. */
export const OPERATOR_AUTHORIZATION = `Bearer ${TEST_METRICS_TOKEN}`;
