import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type Session, User } from '../../server/db/entities/index.ts';
import { createCallerFactory, protectedProcedure, publicProcedure, router } from '../../server/trpc/init.ts';
import { AppError } from '../../src/errors.ts';
import { contextFor } from '../helpers/context.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';

// A router made of the real base procedures, to check what every feature router inherits.
const probeRouter = router({
  whoami: protectedProcedure.query(({ ctx }) => ctx.user.nickname),
  conflict: publicProcedure.mutation(() => {
    throw new AppError('CONFLICT', 'errors.emailTaken');
  }),
  crash: publicProcedure.query(() => {
    throw new Error('relation "secret_table" does not exist');
  }),
  validated: publicProcedure
    .input(z.object({ email: z.string().min(1, 'errors.emailEmpty') }))
    .query(() => 'ok'),
  sameEm: publicProcedure.query(({ ctx }) => ctx.em),
});
const createCaller = createCallerFactory(probeRouter);

let deps: TestDeps;
let freeUser: User;

beforeAll(async () => {
  deps = await createTestDeps();
  const em = deps.orm.em.fork();
  freeUser = em.create(User, { nickname: 'nick123', accountId: 'acc-free-1', email: 'free@example.test' });
  await em.flush();
});
afterAll(() => deps.close());

function callerAs(user: User | null) {
  const session = user ? ({ tokenHash: 'x', user } as unknown as Session) : null;
  return createCaller(contextFor(deps, user && session ? { user, session } : null));
}

describe('base procedures', () => {
  test('protectedProcedure refuses anonymous callers with UNAUTHORIZED', async () => {
    await expect(callerAs(null).whoami()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerAs(freeUser).whoami()).resolves.toBe('nick123');
  });

  test('AppError codes become tRPC codes with their message key', async () => {
    await expect(callerAs(null).conflict()).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'errors.emailTaken',
    });
  });

  test('unexpected errors surface as INTERNAL_SERVER_ERROR', async () => {
    await expect(callerAs(null).crash()).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
  });

  test('zod input errors are BAD_REQUEST', async () => {
    await expect(callerAs(null).validated({ email: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  test('each procedure gets its own EntityManager fork', async () => {
    const caller = callerAs(null);
    const [a, b] = await Promise.all([caller.sameEm(), caller.sameEm()]);
    expect(a).not.toBe(b);
    expect(a).not.toBe(deps.orm.em);
  });
});

describe('the error formatter over HTTP', () => {
  test('internal errors leak no SQL or stack; validation errors carry field message keys', async () => {
    const { createExpressMiddleware } = await import('@trpc/server/adapters/express');
    const express = (await import('express')).default;
    const request = (await import('supertest')).default;
    const app = express().use(
      '/trpc',
      createExpressMiddleware({
        router: probeRouter,
        createContext: () => contextFor(deps),
      }),
    );
    const crash = await request(app).get('/trpc/crash').expect(500);
    expect(crash.body.error.json.message).toBe('errors.generic');
    expect(JSON.stringify(crash.body)).not.toContain('secret_table');
    expect(JSON.stringify(crash.body)).not.toContain('stack');

    const input = encodeURIComponent(JSON.stringify({ json: { email: '' } }));
    const invalid = await request(app).get(`/trpc/validated?input=${input}`).expect(400);
    expect(invalid.body.error.json.data).toMatchObject({
      appCode: 'BAD_REQUEST',
      messageKey: 'errors.emailEmpty',
      fieldErrors: [{ path: 'email', messageKey: 'errors.emailEmpty' }],
    });
  });
});
