import { parse as parseCookies } from 'cookie';
import express, { type Request, type Response, type Router } from 'express';
import { OIDC_FAILED_PARAM, OIDC_FAILED_VALUE } from '../../src/constants.ts';
import type { AppDeps } from '../deps.ts';
import {
  beginOidcFlow,
  bindOidc,
  completeOidcFlow,
  OIDC_FLOW_TTL_SECONDS,
  type OidcDeps,
  safeNextPath,
  signInWithOidc,
  takeOidcFlow,
} from '../domain/auth/oidc.service.ts';
import { requestLanguage } from '../i18n.ts';
import { errorFields, log } from '../log.ts';
import { publicOrigin } from '../web/public-origin.ts';
import { secureCookies, sessionCookies } from '../web/session-cookie.ts';
import { signedInUser } from './signed-in.ts';

/** Binds a flow's state to the browser that started it (login CSRF / injected callbacks). */
const STATE_COOKIE = 'oidc_state';
const MOUNT_PATH = '/auth/oidc';
const FAILURE_PATH = `/login?${OIDC_FAILED_PARAM}=${OIDC_FAILED_VALUE}`;
const STATE_PATTERN = /^[\w-]{16,128}$/;

function stateCookieOptions(deps: AppDeps, req: Request) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookies(req, deps.config),
    path: MOUNT_PATH,
  };
}

/** Where the issuer sends the browser back: PUBLIC_URL when set, else the request's own origin. */
function callbackUrl(deps: AppDeps, req: Request): string {
  return `${publicOrigin(deps.config, req)}${MOUNT_PATH}/callback`;
}

function fail(res: Response, reason: string, err?: unknown): void {
  log.warn('oidc flow failed', { reason, ...(err ? errorFields(err) : {}) });
  res.redirect(302, FAILURE_PATH);
}

/**
 * Sign-in and account binding with the configured OpenID Connect issuer:
 * GET /start[?intent=bind&next=/path] redirects to the issuer, GET /callback finishes.
 */
export function oidcRoutes(deps: AppDeps): Router {
  const router = express.Router();
  const oidc = deps.config.oidc;
  if (!oidc) {
    router.use((_req, res) => {
      res.status(404).json({ error: 'errors.notFound' });
    });
    return router;
  }
  const oidcDeps: OidcDeps = { oidc, redis: deps.redis, redisPrefix: deps.config.redisPrefix };
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  router.get('/start', async (req, res) => {
    try {
      const intent = req.query.intent === 'bind' ? 'bind' : 'signin';
      const user = intent === 'bind' ? await signedInUser(deps, req) : null;
      if (intent === 'bind' && !user) return fail(res, 'bind without a session');
      const { state, authorizationUrl } = await beginOidcFlow(oidcDeps, {
        redirectUri: callbackUrl(deps, req),
        intent,
        next: safeNextPath(req.query.next),
        userId: user?.id ?? null,
      });
      res.cookie(STATE_COOKIE, state, {
        ...stateCookieOptions(deps, req),
        maxAge: OIDC_FLOW_TTL_SECONDS * 1000,
      });
      res.redirect(302, authorizationUrl.href);
    } catch (err) {
      fail(res, 'start failed', err);
    }
  });

  router.get('/callback', async (req, res) => {
    try {
      const state = typeof req.query.state === 'string' ? req.query.state : '';
      const cookieState = parseCookies(req.headers.cookie ?? '')[STATE_COOKIE];
      res.clearCookie(STATE_COOKIE, stateCookieOptions(deps, req));
      if (!STATE_PATTERN.test(state) || state !== cookieState)
        return fail(res, 'state does not match cookie');
      const flow = await takeOidcFlow(oidcDeps, state);
      if (!flow) return fail(res, 'unknown, expired or used state');

      const query = new URL(req.originalUrl, 'http://callback.invalid').search;
      const identity = await completeOidcFlow(oidc, flow, state, query);
      const em = deps.orm.em.fork();
      if (flow.intent === 'bind') {
        const user = await signedInUser(deps, req);
        if (!user || user.id !== flow.userId) return fail(res, 'bind session changed');
        await bindOidc(em, user.id, identity);
      } else {
        const { session } = await signInWithOidc(em, identity, {
          ip: req.ip ?? null,
          userAgent: req.get('user-agent') ?? null,
          language: requestLanguage(req),
        });
        sessionCookies(req, res, deps.config).set(session);
      }
      res.redirect(302, flow.next);
    } catch (err) {
      fail(res, 'callback failed', err);
    }
  });

  return router;
}
