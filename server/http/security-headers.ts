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
        // Pictures come only from Margin: clipped images are stored and served from /files (the
        // reader rewrites every article image to its copy or a placeholder, list rows show the
        // stored lead image). data: is the QR sign-in code and images written into articles.
        imgSrc: ["'self'", 'data:'],
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
