import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import {
  callProcedure,
  type Fixtures,
  fingerprint,
  makeFixtures,
  PROCEDURES,
  PUBLIC_PROCEDURES,
  sampleInput,
} from './router-inventory.ts';

let deps: TestDeps;
let app: Express;
let fx: Fixtures;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createApp(deps);
  ({ fx } = await makeFixtures(deps));
});
afterAll(() => deps.close());

const guarded = PROCEDURES.filter((p) => !PUBLIC_PROCEDURES.has(p.path));

describe('without a session', () => {
  test('the router has procedures, and every public one named here exists', () => {
    expect(guarded.length).toBeGreaterThan(40);
    const paths = new Set(PROCEDURES.map((p) => p.path));
    for (const path of PUBLIC_PROCEDURES) expect(paths, path).toContain(path);
  });

  test.each(guarded)('$path answers 401 and changes nothing', async (procedure) => {
    const before = await fingerprint(deps);
    const input = sampleInput(procedure.path, fx);
    for (const token of [null, 'not-a-session-token', 'x'.repeat(5000)]) {
      const res = await callProcedure(app, procedure, input, token);
      expect(res.status, `${procedure.path} with cookie ${token?.slice(0, 20)}`).toBe(401);
      expect(res.error).toMatchObject({ appCode: 'UNAUTHORIZED', messageKey: 'errors.unauthorized' });
    }
    expect(await fingerprint(deps)).toEqual(before);
  });
});
