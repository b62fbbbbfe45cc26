import createClient from 'openapi-fetch';
import type { AppDeps } from '../../server/deps.ts';
import { createApiToken } from '../../server/domain/openapi/api-tokens.ts';
import type { ApiScope } from '../../src/schemas/api-tokens.ts';
import type { paths } from '../openapi/schema.d.ts';
import { type MemberKind, memberUser } from './membership.ts';

export type ApiClient = ReturnType<typeof createClient<paths>>;

/** A typed client of the Open API (generated from its document) acting with `token`. */
export function apiClient(serverUrl: string, token: string, headers: Record<string, string> = {}): ApiClient {
  return createClient<paths>({
    baseUrl: `${serverUrl}/openapi/v1`,
    headers: { Authorization: `Bearer ${token}`, ...headers },
  });
}

/** A signed-in user of a membership (free unless said) with an API token of `scopes` (all three unless said). */
export async function apiUser(
  deps: AppDeps,
  scopes: ApiScope[] = ['read', 'write', 'daily'],
  kind: MemberKind = 'free',
) {
  const user = await memberUser(deps, kind);
  const { token: apiToken } = await createApiToken(deps.orm.em.fork(), deps.config, user.user, {
    name: 'test',
    scopes,
    expiresInDays: null,
  });
  return { ...user, apiToken };
}
