import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import {
  callProcedure,
  type Fixtures,
  fingerprint,
  makeFixtures,
  ownedIds,
  PROCEDURES,
  PUBLIC_PROCEDURES,
  sampleInput,
} from './router-inventory.ts';

// Two accounts, as an attacker with two accounts would have: everything the owner has must stay
// out of the other's reach, whatever procedure the other calls with the owner's ids.
let deps: TestDeps;
let app: Express;
let owner: Awaited<ReturnType<typeof makeFixtures>>;
let other: Awaited<ReturnType<typeof makeFixtures>>;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createApp(deps);
  owner = await makeFixtures(deps, 'ownersecret');
  other = await makeFixtures(deps, 'othersown');
});
afterAll(() => deps.close());

/** Procedures whose input names one of a user's rows (found with stand-in ids). */
const standIn: Fixtures = {
  email: 'stand-in@example.test',
  noteId: 'STANDIN-NOTE-ID',
  highlightId: 'STANDIN-HIGHLIGHT-ID',
  folderId: 'STANDIN-FOLDER-ID',
  tag: 'stand-in',
  day: '2026-03-01',
  dailyMoveId: 'STANDIN-DAILY-MOVE-ID',
  ticketId: 'STANDIN-TICKET-ID',
  ticketSecret: 'STANDIN-TICKET-SECRET',
  syncTokenId: 987_654_321,
  apiTokenId: 987_654_322,
  webhookEndpointId: 'STANDIN-WEBHOOK-ID',
  orderId: 'mostandinorderid00000000',
};
const takingOwnedIds = PROCEDURES.filter((p) => {
  const input = JSON.stringify(sampleInput(p.path, standIn) ?? null);
  return [...ownedIds(standIn), String(standIn.syncTokenId), String(standIn.apiTokenId)].some((id) =>
    input.includes(id),
  );
});

describe("another user's ids", () => {
  test('the procedures that take ids are found from the router', () => {
    expect(takingOwnedIds.length).toBeGreaterThan(20);
    expect(takingOwnedIds.every((p) => !PUBLIC_PROCEDURES.has(p.path))).toBe(true);
  });

  test.each(takingOwnedIds)(
    '$path: with the owner’s ids → NOT_FOUND and nothing changes',
    async (procedure) => {
      const before = await fingerprint(deps);
      const res = await callProcedure(app, procedure, sampleInput(procedure.path, owner.fx), other.token);
      expect(res.status, res.text.slice(0, 300)).toBe(404);
      expect(res.error).toMatchObject({ appCode: 'NOT_FOUND' });
      expect(await fingerprint(deps)).toEqual(before);
    },
  );

  test.each(PROCEDURES.filter((p) => p.type === 'query'))(
    '$path: what the other user reads holds nothing of the owner’s',
    async (procedure) => {
      const res = await callProcedure(app, procedure, sampleInput(procedure.path, other.fx), other.token);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      for (const secret of [...ownedIds(owner.fx), 'ownersecret', owner.fx.email]) {
        expect(res.text, `${procedure.path} leaks ${secret}`).not.toContain(secret);
      }
    },
  );
});
