import type { Request } from 'express';

/** The token of an `Authorization: <scheme> <token>` header, for any of `schemes`; null otherwise. */
export function authorizationToken(req: Request, schemes: readonly string[]): string | null {
  const [scheme, token, ...rest] = (req.get('authorization') ?? '').trim().split(/\s+/);
  if (!scheme || !token || rest.length) return null;
  return schemes.some((s) => s.toLowerCase() === scheme.toLowerCase()) ? token : null;
}
