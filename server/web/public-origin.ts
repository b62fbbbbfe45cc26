import type { Request } from 'express';
import type { AppConfig } from '../config.ts';

/**
 * The origin links back to Margin are made with: PUBLIC_URL when set, else the request's own:
 * its Host, which the app has checked is an address the server listens at (server/http/served-host.ts), and
 * its protocol (behind a proxy, as TRUST_PROXY lets Express read it); empty when there is no
 * request.
 */
export function publicOrigin(config: Pick<AppConfig, 'publicUrl'>, req: Request | undefined): string {
  if (config.publicUrl) return config.publicUrl;
  return req ? `${req.protocol}://${req.get('host')}` : '';
}
