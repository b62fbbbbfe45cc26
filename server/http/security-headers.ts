import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { AppConfig } from '../config.ts';

/** 180 days, the common floor for HSTS; long enough to matter, short enough to back out of. */
const HSTS_MAX_AGE_S = 15_552_000;

/**
 * Helmet with our Content-Security-Policy. HSTS (and upgrading insecure subresources) only when
 * PUBLIC_URL is https: on a plain-http install the header would be meaningless at best, and
 * upgrade-insecure-requests would send the app's own assets to an https port that is not there.
 */
export function securityHeaders(config: Pick<AppConfig, 'publicUrl'>): RequestHandler {
  const https = config.publicUrl?.startsWith('https:') ?? false;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Clipped articles still show their images from the sites they came from (the sanitiser
        // keeps their remote src, and lead images and image highlights are remote URLs too), so
        // remote https images must load. data: is the QR sign-in code and inline article images.
        // Plain http: images are no longer allowed (on an https install the browser upgrades
        // them first). Once the reader stores clipped images and serves them from our origin,
        // this narrows to ["'self'", 'data:'].
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'https:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true } : false,
  });
}
