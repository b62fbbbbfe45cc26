/**
 * Limits of the tRPC HTTP endpoint that the client must keep too (its batch link may not put
 * more calls in one request than the server takes).
 */
export const TRPC_MAX_BATCH_SIZE = 20;

/** Nesting levels a request's JSON may have: our deepest input is a handful of levels. */
export const JSON_MAX_DEPTH = 64;
