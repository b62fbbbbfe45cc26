import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock, setClock } from '../../server/clock.ts';
import {
  authenticateSyncToken,
  purgeSpentDeviceTickets,
  redeemDeviceTicket,
} from '../../server/domain/sync/tokens.ts';
import { newId } from '../../src/rules/id.ts';
import { createTestDeps, TEST_NOW, type TestDeps } from '../helpers/deps.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});
afterAll(() => deps.close());

const clientId = () => `client-${newId()}`;

describe('sync tokens', () => {
  test('made, listed, renamed and revoked by their owner; only the hash is kept', async () => {
    const { caller, user } = await signedInUser(deps);
    const { token, view } = await caller.sync.createToken({ app: 'obsidian', name: 'Laptop' });
    expect(token).toMatch(/^msync_[\w-]{43}$/);
    expect((await caller.sync.integration({ app: 'obsidian' })).bound).toBe(true);
    const stored = await deps.orm.em
      .fork()
      .getConnection()
      .execute('select token_hash from sync_token where id = ?', [view.id]);
    expect(JSON.stringify(stored)).not.toContain(token);

    const signedIn = await authenticateSyncToken(deps.orm.em.fork(), token, 'obsidian-client-1');
    expect(signedIn?.user.id).toBe(user.id);
    expect(await caller.sync.tokens()).toMatchObject([
      { id: view.id, name: 'Laptop', lastUsedClient: 'obsidian-client-1' },
    ]);

    await caller.sync.renameToken({ id: view.id, name: 'Desk' });
    expect((await caller.sync.tokens())[0]?.name).toBe('Desk');
    await caller.sync.revokeToken({ id: view.id });
    expect(await caller.sync.tokens()).toEqual([]);
    expect(await authenticateSyncToken(deps.orm.em.fork(), token, null)).toBeNull();
    await expect(caller.sync.revokeToken({ id: view.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  test('unbinding revokes the tool’s tokens', async () => {
    const { caller } = await signedInUser(deps);
    const { token } = await caller.sync.createToken({ app: 'logseq', name: 'Graph' });
    await caller.sync.unbind({ app: 'logseq' });
    expect(await authenticateSyncToken(deps.orm.em.fork(), token, null)).toBeNull();
    expect((await caller.sync.integration({ app: 'logseq' })).bound).toBe(false);
  });

  test('device flow: pending until confirmed, one token once, then spent; expiry by the clock', async () => {
    const { caller, user } = await signedInUser(deps);
    const id = clientId();
    expect(await redeemDeviceTicket(deps.orm.em.fork(), id)).toEqual({ state: 'pending' });
    await expect(caller.sync.confirmDevice({ serviceId: 99, clientId: id })).rejects.toMatchObject({
      cause: { messageKey: 'errors.syncServiceUnknown' },
    });
    expect(await caller.sync.confirmDevice({ serviceId: 11, clientId: id })).toEqual({ app: 'logseq' });

    // Two polls at once: one token.
    const polls = await Promise.all([1, 2, 3].map(() => redeemDeviceTicket(deps.orm.em.fork(), id)));
    const tokens = polls.flatMap((p) => (p.state === 'token' ? [p.token] : []));
    expect(tokens).toHaveLength(1);
    expect(polls.filter((p) => p.state === 'expired')).toHaveLength(2);
    expect((await authenticateSyncToken(deps.orm.em.fork(), tokens[0] ?? '', id))?.user.id).toBe(user.id);
    expect((await caller.sync.tokens())[0]).toMatchObject({ app: 'logseq', name: 'Logseq' });

    // A used ticket cannot be confirmed again, by its user or another.
    await expect(caller.sync.confirmDevice({ serviceId: 11, clientId: id })).rejects.toMatchObject({
      cause: { messageKey: 'errors.deviceTicketUsed' },
    });
    const stranger = await signedInUser(deps);
    await expect(stranger.caller.sync.confirmDevice({ serviceId: 7, clientId: id })).rejects.toMatchObject({
      cause: { messageKey: 'errors.deviceTicketUsed' },
    });

    const late = clientId();
    await caller.sync.confirmDevice({ serviceId: 7, clientId: late });
    try {
      setClock(new Date(clock.now().getTime() + 11 * 60_000));
      expect(await redeemDeviceTicket(deps.orm.em.fork(), late)).toEqual({ state: 'expired' });
      setClock(new Date(clock.now().getTime() + 25 * 60 * 60_000));
      expect(await purgeSpentDeviceTickets(deps.orm.em.fork())).toBeGreaterThanOrEqual(2);
      expect(await redeemDeviceTicket(deps.orm.em.fork(), late)).toEqual({ state: 'pending' });
    } finally {
      setClock(TEST_NOW);
    }
  });
});
