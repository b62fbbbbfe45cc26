import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock, setClock } from '../../server/clock.ts';
import { authenticateApiToken } from '../../server/domain/openapi/api-tokens.ts';
import { toErrorPayload } from '../../server/trpc/init.ts';
import { DAY_MS, MINUTE_MS } from '../../src/constants.ts';
import { API_TOKENS_PER_USER_MAX } from '../../src/schemas/api-tokens.ts';
import { createTestDeps, TEST_NOW, type TestDeps } from '../helpers/deps.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

const authenticate = (token: string) => authenticateApiToken(deps.orm.em.fork(), token);

/** Every api_token row of a user, as stored. */
function storedRows(userId: number) {
  return deps.orm.em
    .fork()
    .getConnection()
    .execute<Record<string, unknown>[]>('select * from api_token where user_id = ? order by id', [userId]);
}

/** Moves the injected clock by `ms` from where it is now. */
const moveClock = (ms: number) => setClock(new Date(clock.now().getTime() + ms));

describe('API tokens', () => {
  test('made once in plain, kept only as a hash, listed with hint, scopes and last use, then revoked', async () => {
    const { caller, user } = await signedInUser(deps);
    const { token, view } = await caller.openapi.createToken({
      name: '  iPhone Shortcuts  ',
      scopes: ['daily', 'read'],
      expiresInDays: null,
    });
    expect(token).toMatch(/^mapi_[\w-]{43}$/);
    expect(view).toMatchObject({
      name: 'iPhone Shortcuts',
      hint: token.slice(0, 9),
      scopes: ['read', 'daily'],
      expiresAt: null,
      expired: false,
      lastUsedAt: null,
    });

    // The database holds the hash, never the token or its secret part.
    const rows = await storedRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token.slice(9));
    // Shown once: nothing the list returns carries it.
    expect(JSON.stringify(await caller.openapi.tokens())).not.toContain(token.slice(9));

    const signedIn = await authenticate(token);
    expect(signedIn?.user.id).toBe(user.id);
    expect(signedIn?.token.scopes).toEqual(['read', 'daily']);
    const [listed] = await caller.openapi.tokens();
    expect(listed).toMatchObject({ id: view.id, hint: view.hint, scopes: ['read', 'daily'] });
    const firstUse = listed?.lastUsedAt;
    expect(firstUse).toBeInstanceOf(Date);

    // Last use is written at most once a minute.
    try {
      moveClock(30_000);
      await authenticate(token);
      expect((await caller.openapi.tokens())[0]?.lastUsedAt).toEqual(firstUse);
      moveClock(MINUTE_MS);
      await authenticate(token);
      expect((await caller.openapi.tokens())[0]?.lastUsedAt?.getTime()).toBeGreaterThan(
        firstUse?.getTime() ?? Infinity,
      );
    } finally {
      setClock(TEST_NOW);
    }

    await caller.openapi.revokeToken({ id: view.id });
    expect(await caller.openapi.tokens()).toEqual([]);
    expect(await authenticate(token)).toBeNull();
    await expect(caller.openapi.revokeToken({ id: view.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      cause: { messageKey: 'errors.apiTokenNotFound' },
    });
  });

  test('another user’s token id: NOT_FOUND, and the token still works and is still listed', async () => {
    const owner = await signedInUser(deps);
    const stranger = await signedInUser(deps);
    const { token, view } = await owner.caller.openapi.createToken({
      name: 'Owner’s script',
      scopes: ['write'],
      expiresInDays: 30,
    });
    const before = await storedRows(owner.user.id);
    await expect(stranger.caller.openapi.revokeToken({ id: view.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await storedRows(owner.user.id)).toEqual(before);
    expect(await stranger.caller.openapi.tokens()).toEqual([]);
    expect((await owner.caller.openapi.tokens()).map((t) => t.id)).toEqual([view.id]);
    expect((await authenticate(token))?.user.id).toBe(owner.user.id);
  });

  test('an expired token is refused and listed as expired; unknown and malformed tokens are refused', async () => {
    const { caller } = await signedInUser(deps);
    const { token, view } = await caller.openapi.createToken({
      name: 'A week',
      scopes: ['read'],
      expiresInDays: 7,
    });
    expect(view.expiresAt?.getTime()).toBe(view.createdAt.getTime() + 7 * DAY_MS);
    try {
      moveClock(7 * DAY_MS - MINUTE_MS);
      expect(await authenticate(token)).not.toBeNull();
      moveClock(2 * MINUTE_MS);
      expect(await authenticate(token)).toBeNull();
      expect(await caller.openapi.tokens()).toMatchObject([{ id: view.id, expired: true }]);
    } finally {
      setClock(TEST_NOW);
    }

    expect(await authenticate(`mapi_${'x'.repeat(43)}`)).toBeNull();
    expect(await authenticate('')).toBeNull();
    expect(await authenticate(`msync_${token.slice(5)}`)).toBeNull();
    expect(await authenticate(`${token}${'x'.repeat(200)}`)).toBeNull();
  });

  test(`at most ${API_TOKENS_PER_USER_MAX} live tokens, also when they are created all at once`, async () => {
    const { caller, user } = await signedInUser(deps);
    const attempts = await Promise.allSettled(
      Array.from({ length: API_TOKENS_PER_USER_MAX + 5 }, (_, i) =>
        caller.openapi.createToken({ name: `Script ${i}`, scopes: ['read'], expiresInDays: null }),
      ),
    );
    const refused = attempts.filter((a) => a.status === 'rejected');
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(API_TOKENS_PER_USER_MAX);
    expect(refused).toHaveLength(5);
    for (const attempt of refused) {
      expect(attempt.reason).toMatchObject({
        code: 'CONFLICT',
        cause: { messageKey: 'errors.apiTokenLimit', params: { max: API_TOKENS_PER_USER_MAX } },
      });
    }
    expect(await storedRows(user.id)).toHaveLength(API_TOKENS_PER_USER_MAX);

    // A revoked token frees its place.
    const [first] = await caller.openapi.tokens();
    await caller.openapi.revokeToken({ id: first?.id ?? 0 });
    await caller.openapi.createToken({ name: 'In its place', scopes: ['daily'], expiresInDays: 90 });
    await expect(
      caller.openapi.createToken({ name: 'One too many', scopes: ['read'], expiresInDays: null }),
    ).rejects.toMatchObject({ cause: { messageKey: 'errors.apiTokenLimit' } });
  });

  test('bad input is refused with a translated reason and stores nothing', async () => {
    const { caller, user } = await signedInUser(deps);
    const cases: [input: unknown, messageKey: string][] = [
      [{ name: 'bad\u0000name', scopes: ['read'], expiresInDays: null }, 'errors.invalidCharacters'],
      [{ name: 'No scope', scopes: [], expiresInDays: null }, 'errors.apiScopesEmpty'],
      [{ name: 'x'.repeat(10_000), scopes: ['read'], expiresInDays: null }, 'errors.nameTooLong'],
      [{ name: '   ', scopes: ['read'], expiresInDays: null }, 'errors.cannotBeEmpty'],
      [{ name: 'Twice', scopes: ['read', 'read'], expiresInDays: null }, 'errors.invalidInput'],
      [{ name: 'Admin', scopes: ['admin'], expiresInDays: null }, 'errors.invalidInput'],
      [{ name: 'Odd expiry', scopes: ['read'], expiresInDays: 3 }, 'errors.invalidInput'],
    ];
    for (const [input, messageKey] of cases) {
      const error = await caller.openapi
        .createToken(input as Parameters<typeof caller.openapi.createToken>[0])
        .catch((e: unknown) => e);
      expect(error, JSON.stringify(input).slice(0, 80)).toBeInstanceOf(TRPCError);
      // What the client is sent: the code and the message key it translates.
      expect(toErrorPayload(error as TRPCError)).toMatchObject({ appCode: 'BAD_REQUEST', messageKey });
    }
    expect(await storedRows(user.id)).toEqual([]);
    await expect(caller.openapi.revokeToken({ id: -1 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
