import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { DEVICE_CODE_MISSES_MAX } from '../../server/domain/sync/tokens.ts';
import { formatDeviceCode, newClientId, newDeviceCode } from '../../src/rules/device-flow.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { signedInUser } from '../helpers/users.ts';

// The device flow's pre-claim: whoever learns a plugin's client id before its owner confirms
// (the page's address) must not get the plugin syncing into their account, nor its token. A
// plugin that shows a code is confirmed only with that code and hands its token only to a poll
// with it; any ticket a second account tries to confirm is burned, and its poller is told so.

let deps: TestDeps;
let app: Express;
beforeAll(async () => {
  // Behind a trusted proxy on loopback, so each test polls from an address of its own.
  deps = await createTestDeps({ TRUST_PROXY: 'loopback' });
  app = createApp(deps);
});
afterAll(() => deps.close());

type Signed = Awaited<ReturnType<typeof signedInUser>>;
const OBSIDIAN = 7;
let address = 0;

/** A plugin connecting: its client id, the code it shows (null for the seed's plugins), its polls. */
function plugin(showsCode: boolean) {
  const clientId = newClientId();
  const userCode = showsCode ? newDeviceCode() : null;
  const ip = `10.9.0.${++address}`;
  return {
    clientId,
    userCode,
    /** A poll with `code` (null: none), the plugin's own unless said. */
    poll: (code: string | null = userCode) =>
      request(app)
        .post('/api/sync/v1/token')
        .set('X-Forwarded-For', ip)
        .send({ clientId, ...(code !== null && { userCode: code }) }),
  };
}

const confirm = (user: Signed, clientId: string, userCode?: string) =>
  user.caller.sync.confirmDevice({ serviceId: OBSIDIAN, clientId, ...(userCode && { userCode }) });

const refusal = (messageKey: string) => ({ cause: { messageKey } });

/** The tokens the account holds: none at all after a refused connection. */
const tokensOf = async (user: Signed) => (await user.caller.sync.tokens()).length;

describe('the device flow is bound to the plugin that showed the code', () => {
  test('a plugin without a code (the seed’s): the attacker confirms first, the owner is told it failed, the poller never gets the attacker’s token', async () => {
    const owner = await signedInUser(deps);
    const attacker = await signedInUser(deps);
    const seed = plugin(false);
    expect((await seed.poll().expect(202)).body.error.code).toBe('pending');

    await confirm(attacker, seed.clientId);
    await expect(confirm(owner, seed.clientId)).rejects.toMatchObject(refusal('errors.deviceTicketClaimed'));
    // Burned: the plugin is told the request expired, and so is every later poll.
    for (let i = 0; i < 3; i++) expect((await seed.poll().expect(410)).body.error.code).toBe('expired');
    // Neither account can bring it back.
    await expect(confirm(attacker, seed.clientId)).rejects.toMatchObject(
      refusal('errors.deviceTicketBurned'),
    );
    await expect(confirm(owner, seed.clientId)).rejects.toMatchObject(refusal('errors.deviceTicketBurned'));
    await seed.poll().expect(410);
    expect([await tokensOf(owner), await tokensOf(attacker)]).toEqual([0, 0]);
  });

  test('a plugin with a code: the attacker cannot confirm without it, guessing burns the ticket, and the owner is told', async () => {
    const owner = await signedInUser(deps);
    const attacker = await signedInUser(deps);
    const ours = plugin(true);
    await ours.poll().expect(202);

    await expect(confirm(attacker, ours.clientId)).rejects.toMatchObject(refusal('errors.deviceCodeNeeded'));
    const guess = (i: number) => 'BCDFGHJK'.slice(i) + 'BCDFGHJK'.slice(0, i);
    for (let i = 1; i < DEVICE_CODE_MISSES_MAX; i++) {
      await expect(confirm(attacker, ours.clientId, guess(i))).rejects.toMatchObject(
        refusal('errors.deviceCodeWrong'),
      );
      await ours.poll().expect(202);
    }
    await expect(confirm(attacker, ours.clientId, 'ZZZZZZZZ')).rejects.toMatchObject(
      refusal('errors.deviceTicketBurned'),
    );
    await expect(confirm(owner, ours.clientId, ours.userCode!)).rejects.toMatchObject(
      refusal('errors.deviceTicketBurned'),
    );
    await ours.poll().expect(410);
    expect([await tokensOf(owner), await tokensOf(attacker)]).toEqual([0, 0]);
  });

  test('an attacker who confirms before the plugin registers its code: the plugin’s poll burns the ticket, no token', async () => {
    const owner = await signedInUser(deps);
    const attacker = await signedInUser(deps);
    const ours = plugin(true);
    await confirm(attacker, ours.clientId);
    expect((await ours.poll().expect(410)).body.error.code).toBe('expired');
    await expect(confirm(owner, ours.clientId, ours.userCode!)).rejects.toMatchObject(
      refusal('errors.deviceTicketBurned'),
    );
    await ours.poll().expect(410);
    expect([await tokensOf(owner), await tokensOf(attacker)]).toEqual([0, 0]);
  });

  test('a poll without the code (someone who learned the client id) gets no token and burns the ticket', async () => {
    const owner = await signedInUser(deps);
    const ours = plugin(true);
    await ours.poll().expect(202);
    await confirm(owner, ours.clientId, ours.userCode!);
    await ours.poll(null).expect(410);
    await ours.poll(newDeviceCode()).expect(410);
    await ours.poll().expect(410);
    expect(await tokensOf(owner)).toBe(0);
  });

  test('the owner with the code: confirmed as typed (spaces, lower case), one token to the plugin’s poll, then used', async () => {
    const owner = await signedInUser(deps);
    const stranger = await signedInUser(deps);
    const ours = plugin(true);
    await ours.poll().expect(202);
    // Someone without the code changes nothing; the owner's confirmation goes through.
    await expect(confirm(stranger, ours.clientId)).rejects.toMatchObject(refusal('errors.deviceCodeNeeded'));
    const typed = formatDeviceCode(ours.userCode!).toLowerCase().replace('-', ' ');
    await expect(confirm(owner, ours.clientId, typed)).resolves.toEqual({ app: 'obsidian' });
    // Confirming again before the plugin collects renews the ticket.
    await confirm(owner, ours.clientId, ours.userCode!);

    const polls = await Promise.all([1, 2, 3].map(() => ours.poll()));
    const tokens = polls.filter((p) => p.status === 200).map((p) => p.body.token as string);
    expect(tokens).toHaveLength(1);
    expect(polls.filter((p) => p.status === 410)).toHaveLength(2);
    const init = await request(app)
      .post('/api/sync/v1/init')
      .set('Authorization', `Bearer ${tokens[0]}`)
      .send({ clientId: ours.clientId })
      .expect(200);
    expect(init.body.app).toBe('obsidian');
    expect((await owner.caller.sync.tokens()).map((t) => t.app)).toEqual(['obsidian']);

    // A used ticket is refused to its owner and to anyone else, and burns nothing more.
    await expect(confirm(owner, ours.clientId, ours.userCode!)).rejects.toMatchObject(
      refusal('errors.deviceTicketUsed'),
    );
    await expect(confirm(stranger, ours.clientId, ours.userCode!)).rejects.toMatchObject(
      refusal('errors.deviceTicketUsed'),
    );
    expect(await tokensOf(stranger)).toBe(0);
  });

  test('a seed plugin’s normal flow still works: one account confirms, the poll without a code gets the token', async () => {
    const owner = await signedInUser(deps);
    const seed = plugin(false);
    await seed.poll().expect(202);
    await confirm(owner, seed.clientId);
    expect((await seed.poll().expect(200)).body.token).toMatch(/^msync_/);
    await seed.poll().expect(410);
  });

  test('malformed codes are a 400 on the poll and on the confirmation, and change nothing', async () => {
    const owner = await signedInUser(deps);
    const ours = plugin(true);
    await ours.poll().expect(202);
    for (const bad of ['', 'ABCDEFGH', 'BCDF', 'BCDFGHJKL', 'bcdf\u0000ghjk', 'x'.repeat(100), '12345678']) {
      const res = await ours.poll(bad);
      expect([bad, res.status, res.body.error?.code]).toEqual([bad, 400, 'invalid_input']);
      await expect(confirm(owner, ours.clientId, bad || ' ')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    await ours.poll().expect(202);
    await confirm(owner, ours.clientId, ours.userCode!);
    await ours.poll().expect(200);
  });
});
