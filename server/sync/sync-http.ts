import type { Request, RequestHandler } from 'express';
import { authorizationToken } from '../web/authorization.ts';
import { jsonBody } from '../web/json-body.ts';

/**
 * A sync call's body: a client id, a cursor (≤ 512), at most six note ids, and the seed
 * plugins' few extra fields. 64 KB is far above any of them and far below what could hurt.
 */
const SYNC_BODY_MAX = 64 * 1024;

/** JSON bodies for the sync fronts (not tRPC, so they bring their own cap and depth check). */
export const syncJsonBody = (): RequestHandler => jsonBody(SYNC_BODY_MAX);

/**
 * Note-tool plugins call from their app's own origin (Obsidian's `app://obsidian.md`, Logseq's
 * plugin frame, SiYuan's local kernel page) with `fetch`, so every answer allows any origin.
 * That is safe here: these routes read no cookie, only the token the plugin sends.
 */
export const syncCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('Access-Control-Allow-Methods', 'POST');
  res.setHeader('Access-Control-Allow-Headers', req.get('access-control-request-headers') ?? 'Content-Type');
  res.setHeader('Access-Control-Max-Age', '86400');
  res.status(204).end();
};

/** The token of `Authorization: Bearer <token>` or the seed plugins' `Token <token>`. */
export const tokenOf = (req: Request): string | null => authorizationToken(req, ['Bearer', 'Token']);
