import { generateKeyPairSync } from 'node:crypto';
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error -- oidc-provider ships no type declarations
import { Provider } from 'oidc-provider';
// @ts-expect-error -- as above; passing the adapter ourselves silences its "dev only" warning
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';

/** The identity the local issuer vouches for on the next sign-in. */
export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
}

interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(indicator: string, scope: string): void;
  save(): Promise<string>;
}

interface InteractionDetails {
  prompt: {
    name: string;
    details: {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
  };
  grantId?: string;
  session?: { accountId: string };
  params: { client_id: string };
}

/** The part of oidc-provider's Provider these tests use. */
interface OidcProvider {
  callback(): RequestListener;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  Grant: {
    new (fields: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  };
}

export interface TestIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers our client; the app's port is known only after the app (which needs `issuer`) starts. */
  registerClient(redirectUri: string): void;
  /** Who the next login interaction signs in as (no form: the interaction answers at once). */
  signInAs(account: TestAccount): void;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider) on an ephemeral loopback port. Its login and
 * consent interactions complete immediately as the account given to `signInAs`, so a flow is
 * just a chain of redirects a plain HTTP client can follow.
 */
export async function startTestIssuer(): Promise<TestIssuer> {
  const clientId = 'margin-test';
  const clientSecret = 'margin-test-secret-0123456789abcdef';
  const accounts = new Map<string, TestAccount>();
  let nextAccount: TestAccount | null = null;
  let provider: OidcProvider | null = null;
  let handle: RequestListener | null = null;

  const interact = async (req: IncomingMessage, res: ServerResponse, idp: OidcProvider) => {
    const details = await idp.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (!nextAccount) throw new Error('signInAs was not called');
      accounts.set(nextAccount.sub, nextAccount);
      await idp.interactionFinished(
        req,
        res,
        { login: { accountId: nextAccount.sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = details.prompt.details;
    const grant =
      (details.grantId && (await idp.Grant.find(details.grantId))) ||
      new idp.Grant({ accountId: details.session?.accountId ?? '', clientId: details.params.client_id });
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
    if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    await idp.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  };

  const server = http.createServer((req, res) => {
    if (!provider || !handle) {
      res.writeHead(503).end();
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      interact(req, res, provider).catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  return {
    issuer,
    clientId,
    clientSecret,
    registerClient(redirectUri) {
      provider = new Provider(issuer, {
        adapter: createMemoryAdapter(),
        jwks: { keys: [{ ...signingKey, kid: 'test', use: 'sig', alg: 'RS256' }] },
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        features: { devInteractions: { enabled: false } },
        ttl: { AccessToken: 600, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
        interactions: {
          url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
        },
        findAccount: (_ctx: unknown, sub: string) => {
          const account = accounts.get(sub);
          return account && { accountId: sub, claims: () => ({ ...account }) };
        },
      }) as OidcProvider;
      handle = provider.callback();
    },
    signInAs(account) {
      nextAccount = account;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A browser reduced to what a redirect-based sign-in needs: a cookie jar (per origin, with
 * paths) and redirects followed by hand, so a test can stop at any hop.
 */
export class TestBrowser {
  readonly #cookies = new Map<string, { name: string; value: string; path: string }[]>();

  cookie(url: string, name: string): string | undefined {
    return this.#jar(url).find((c) => c.name === name)?.value;
  }

  setCookie(url: string, name: string, value: string, path = '/'): void {
    this.#put(url, { name, value, path });
  }

  /** Forgets every cookie of an origin (a new sign-in at the issuer rather than its remembered session). */
  forget(url: string): void {
    this.#cookies.delete(new URL(url).origin);
  }

  /** One request, no redirect followed. */
  async get(url: string): Promise<Response> {
    const target = new URL(url);
    const cookie = this.#jar(url)
      .filter((c) => target.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const response = await fetch(target, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of response.headers.getSetCookie()) this.#store(url, line);
    return response;
  }

  /** Follows redirects from `url` and returns the first location `stop` accepts (not requested). */
  async followUntil(url: string, stop: (location: URL) => boolean): Promise<URL> {
    let current = new URL(url);
    for (let hop = 0; hop < 20; hop++) {
      const response = await this.get(current.href);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        throw new Error(`${current.href} answered ${response.status}: ${await response.text()}`);
      }
      current = new URL(location, current);
      if (stop(current)) return current;
    }
    throw new Error('too many redirects');
  }

  #jar(url: string) {
    return this.#cookies.get(new URL(url).origin) ?? [];
  }

  #store(url: string, line: string): void {
    const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attribute = (key: string) =>
      attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const path = attribute('path') ?? '/';
    const expires = attribute('expires');
    const gone =
      !value || attribute('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now());
    this.#put(url, gone ? { name, path } : { name, value, path });
  }

  /** Replaces the cookie with the same name and path; without a value, removes it. */
  #put(url: string, cookie: { name: string; value?: string; path: string }): void {
    const jar = this.#jar(url).filter((c) => !(c.name === cookie.name && c.path === cookie.path));
    if (cookie.value !== undefined) jar.push({ ...cookie, value: cookie.value });
    this.#cookies.set(new URL(url).origin, jar);
  }
}
