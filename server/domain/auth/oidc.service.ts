import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import * as oidcClient from 'openid-client';
import { zEmail } from '../../../src/schemas/auth.ts';
import type { AppConfig } from '../../config.ts';
import { AuthBinding, User } from '../../db/entities/index.ts';
import { newUser, type SignedInResult } from './auth.service.ts';
import { type ClientInfo, createSession } from './session.service.ts';

/** The AuthBinding provider name of the configured OpenID Connect issuer (Google, or any other). */
const OIDC_PROVIDER = 'google';
export const OIDC_FLOW_TTL_SECONDS = 10 * 60;
const SCOPE = 'openid email profile';

export type OidcSettings = NonNullable<AppConfig['oidc']>;
export type OidcIntent = 'signin' | 'bind';

/** What `start` remembers server-side until the browser comes back to the callback. */
export interface OidcFlow {
  intent: OidcIntent;
  /** Same-origin path to land on afterwards. */
  next: string;
  /** The signed-in user who asked to bind (intent 'bind' only). */
  userId: number | null;
  redirectUri: string;
  codeVerifier: string;
  nonce: string;
}

/** The identity the issuer vouched for. */
export interface OidcIdentity {
  subject: string;
  /** Normalised (lower-cased) email, when the issuer gave a well-formed one. */
  email: string | null;
  emailVerified: boolean;
}

export interface OidcDeps {
  oidc: OidcSettings;
  redis: Redis;
  redisPrefix: string;
}

/** A failed flow; the message is for the log only, never for the browser. */
class OidcFlowError extends Error {}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Plain-HTTP issuers are refused except on loopback, where local test providers live. */
function isLoopbackHttp(issuer: URL): boolean {
  return issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
}

const configurations = new Map<string, Promise<oidcClient.Configuration>>();

/** The issuer's discovered metadata and our client, discovered once per process and issuer. */
function oidcConfiguration(oidc: OidcSettings): Promise<oidcClient.Configuration> {
  const key = JSON.stringify([oidc.issuer, oidc.clientId, oidc.clientSecret ?? null]);
  let found = configurations.get(key);
  if (!found) {
    const issuer = new URL(oidc.issuer);
    found = oidcClient.discovery(
      issuer,
      oidc.clientId,
      oidc.clientSecret,
      oidc.clientSecret ? undefined : oidcClient.None(),
      { execute: isLoopbackHttp(issuer) ? [oidcClient.allowInsecureRequests] : [], timeout: 10 },
    );
    // A failed discovery (issuer down) is retried by the next request rather than cached.
    found.catch(() => configurations.delete(key));
    configurations.set(key, found);
  }
  return found;
}

/** Only same-origin relative paths: '/x' yes; '//evil', '/\evil', 'https://…' no. */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.length > 2048) {
    return '/';
  }
  // Browsers read '\' as '/' and drop tabs and newlines: let the URL parser decide the origin.
  const base = 'http://margin.invalid';
  const url = URL.parse(next, base);
  return url?.origin === base ? `${url.pathname}${url.search}${url.hash}` : '/';
}

const flowKey = (redisPrefix: string, state: string) => `${redisPrefix}:oidc:${state}`;

/**
 * Starts an authorization code flow with PKCE, state and nonce, all kept in Redis under the
 * state for ten minutes. Returns the state (for the browser-binding cookie) and where to send
 * the browser.
 */
export async function beginOidcFlow(
  deps: OidcDeps,
  request: { redirectUri: string; intent: OidcIntent; next: string; userId: number | null },
): Promise<{ state: string; authorizationUrl: URL }> {
  const configuration = await oidcConfiguration(deps.oidc);
  const state = oidcClient.randomState();
  const flow: OidcFlow = {
    ...request,
    codeVerifier: oidcClient.randomPKCECodeVerifier(),
    nonce: oidcClient.randomNonce(),
  };
  await deps.redis.set(flowKey(deps.redisPrefix, state), JSON.stringify(flow), 'EX', OIDC_FLOW_TTL_SECONDS);
  const authorizationUrl = oidcClient.buildAuthorizationUrl(configuration, {
    redirect_uri: flow.redirectUri,
    scope: SCOPE,
    code_challenge: await oidcClient.calculatePKCECodeChallenge(flow.codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce: flow.nonce,
  });
  return { state, authorizationUrl };
}

/** The flow started under `state`, removed as it is read so a callback cannot be replayed. */
export async function takeOidcFlow(
  deps: Pick<OidcDeps, 'redis' | 'redisPrefix'>,
  state: string,
): Promise<OidcFlow | null> {
  const raw = await deps.redis.getdel(flowKey(deps.redisPrefix, state));
  return raw ? (JSON.parse(raw) as OidcFlow) : null;
}

/**
 * Exchanges the code (with the PKCE verifier) and checks state, nonce, issuer and the ID Token;
 * `callbackQuery` is the raw query string the issuer sent the browser back with.
 */
export async function completeOidcFlow(
  oidc: OidcSettings,
  flow: OidcFlow,
  state: string,
  callbackQuery: string,
): Promise<OidcIdentity> {
  const configuration = await oidcConfiguration(oidc);
  const callbackUrl = new URL(flow.redirectUri);
  callbackUrl.search = callbackQuery;
  const tokens = await oidcClient.authorizationCodeGrant(configuration, callbackUrl, {
    pkceCodeVerifier: flow.codeVerifier,
    expectedState: state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  const idToken = tokens.claims();
  if (!idToken) throw new OidcFlowError('no ID token');
  let claims: Record<string, unknown> = idToken;
  // Some issuers (Google) put email in the ID Token; others only answer it at UserInfo.
  if (idToken.email === undefined && configuration.serverMetadata().userinfo_endpoint) {
    claims = await oidcClient.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
  }
  const email = zEmail.safeParse(claims.email);
  return {
    subject: idToken.sub,
    email: email.success ? email.data : null,
    emailVerified: email.success && claims.email_verified === true,
  };
}

/** Records that `user` signs in with the issuer's identity. */
async function saveBinding(em: EntityManager, user: User, identity: OidcIdentity): Promise<void> {
  em.create(AuthBinding, { user, provider: OIDC_PROVIDER, subject: identity.subject, email: identity.email });
  await em.flush();
}

/**
 * Signs in with an issuer identity: the user bound to its subject; else, when the issuer says
 * the email is verified, the user who already has that email (account linking: the issuer is
 * one the operator configured and trusts, and a verified email proves the same person controls
 * both, so they keep one account instead of getting a duplicate); else a new user without a
 * password, with the email only if it is verified.
 */
export async function signInWithOidc(
  em: EntityManager,
  identity: OidcIdentity,
  client: ClientInfo & { language: string | null },
): Promise<SignedInResult> {
  return em.transactional(async (tem) => {
    const binding = await tem.findOne(
      AuthBinding,
      { provider: OIDC_PROVIDER, subject: identity.subject },
      { populate: ['user'] },
    );
    let user = binding?.user as User | undefined;
    if (!user) {
      const sameEmail =
        identity.emailVerified && identity.email ? await tem.findOne(User, { email: identity.email }) : null;
      if (sameEmail && (await tem.count(AuthBinding, { user: sameEmail, provider: OIDC_PROVIDER }))) {
        throw new OidcFlowError('the user with this verified email is bound to another subject');
      }
      user =
        sameEmail ??
        newUser(tem, {
          email: identity.emailVerified ? identity.email : null,
          passwordHash: null,
          language: client.language,
        });
      await saveBinding(tem, user, identity);
    }
    return { user, session: await createSession(tem, user, client) };
  });
}

/** Binds an issuer identity to a signed-in user; binding the same one again changes nothing. */
export async function bindOidc(em: EntityManager, userId: number, identity: OidcIdentity): Promise<void> {
  await em.transactional(async (tem) => {
    const user = await tem.findOneOrFail(User, { id: userId });
    const bySubject = await tem.findOne(AuthBinding, { provider: OIDC_PROVIDER, subject: identity.subject });
    if (bySubject) {
      if ((bySubject.user as User).id !== user.id)
        throw new OidcFlowError('subject is bound to another user');
      return;
    }
    if (await tem.count(AuthBinding, { user, provider: OIDC_PROVIDER })) {
      throw new OidcFlowError('user is already bound to another subject');
    }
    await saveBinding(tem, user, identity);
  });
}
