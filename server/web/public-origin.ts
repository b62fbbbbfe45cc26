import type { Request } from 'express';
import type { AppConfig } from '../config.ts';
import { publicBaseUrl } from '../public-base-url.ts';

/**
 * The origin links back to Margin are made with: PUBLIC_URL when set, else the request's own:
 * its Host, which the app has checked is an address the server listens at (server/http/served-host.ts), and
 * its protocol (behind a proxy, as TRUST_PROXY lets Express read it); with no request (or no
 * Host), the address the server listens at.
 */
export function publicOrigin(
  config: Pick<AppConfig, 'publicUrl' | 'host' | 'port'>,
  req: Request | undefined,
): string {
  const host = req?.get('host');
  if (config.publicUrl || !req || !host) return publicBaseUrl(config);
  return `${req.protocol}://${host}`;
}
