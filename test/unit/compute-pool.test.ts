import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clock } from '../../server/clock.ts';
import { ComputeBudget, ComputePool } from '../../server/domain/compute/compute-pool.ts';
import { SAMPLE_RECORDS } from '../../server/domain/sync/templates/render.ts';
import { TagStyle } from '../../src/schemas/sync.ts';

// The compute pool against a real Redis: users take turns on its threads, a request stops at its
// budget, a thread that does not stop is terminated, and the per-user limits hold.

let redis: Redis;
const prefix = `t-compute-${randomBytes(4).toString('hex')}`;
beforeAll(() => {
  redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const ctx = { timeZone: 'UTC', tagStyle: TagStyle.hash };
const record = SAMPLE_RECORDS[1]!;
/** A render of about `ms` milliseconds' LiquidJS work (a third of a millisecond a thousand steps). */
const slowNote = (steps: number) => `{% for i in (1..${steps}) %}{% assign x = i %}{% endfor %}{{ title }}`;

function renderTask(note: string) {
  return {
    name: 'renderNotes' as const,
    app: 'obsidian' as const,
    templates: { note },
    records: [record],
    ctx,
  };
}

describe('compute pool', () => {
  test('users take turns: a user with many tasks waiting does not hold back another user', async () => {
    const pool = new ComputePool({ size: 1, redis, redisPrefix: prefix });
    try {
      const finished: string[] = [];
      const run = (who: string, userId: number, records = 1) =>
        pool
          .budget(userId, 'request')
          .run({ ...renderTask(slowNote(30_000)), records: Array.from({ length: records }, () => record) })
          .then(() => finished.push(who));
      // a1 renders long enough for the others to queue behind it.
      const first = [run('a1', 1, 12), run('a2', 1), run('a3', 1)];
      await expect.poll(() => pool.load).toEqual({ running: 1, waiting: 2 });
      const other = run('b1', 2);
      await expect.poll(() => pool.load.waiting).toBe(3);
      await Promise.all([...first, other]);
      expect(finished).toEqual(['a1', 'b1', 'a2', 'a3']);
    } finally {
      await pool.close();
    }
  });

  test('a request that renders past its budget stops at it with the budget error', async () => {
    const pool = new ComputePool({ size: 1, redis, redisPrefix: prefix });
    try {
      const budget = new ComputeBudget(pool, 3, 150);
      const many = { ...renderTask(slowNote(60_000)), records: Array.from({ length: 20 }, () => record) };
      await expect(budget.run(many)).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        messageKey: 'errors.renderBudgetExceeded',
      });
      // The budget is spent: the next task of the same request is refused without running.
      expect(budget.leftMs).toBeLessThanOrEqual(0);
      await expect(budget.run(renderTask('{{ title }}'))).rejects.toMatchObject({
        messageKey: 'errors.renderBudgetExceeded',
      });
      // A fresh request has its own budget.
      await expect(pool.budget(3, 'request').run(renderTask('{{ title }}'))).resolves.toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  test('a task that never checks its budget has its thread terminated, and the pool goes on', async () => {
    const pool = new ComputePool({ size: 1, redis, redisPrefix: prefix, terminateGraceMs: 0 });
    try {
      const html = '<div><p><b>bold</b> <i>it</i></p></div>'.repeat(400_000);
      await expect(
        new ComputeBudget(pool, 4, 100).run({ name: 'htmlToMarkdown', html }),
      ).rejects.toMatchObject({
        messageKey: 'errors.renderBudgetExceeded',
      });
      await expect(
        pool.budget(4, 'request').run({ name: 'htmlToMarkdown', html: '<h1>Title</h1><p>Text</p>' }),
      ).resolves.toBe('# Title\n\nText');
    } finally {
      await pool.close();
    }
  });

  test('a user may have only so many tasks waiting, and a thread’s worth a minute across servers', async () => {
    const pool = new ComputePool({ size: 1, redis, redisPrefix: prefix });
    const otherServer = new ComputePool({ size: 1, redis, redisPrefix: prefix });
    try {
      const tasks = Array.from({ length: 12 }, () =>
        pool
          .budget(5, 'request')
          .run(renderTask(slowNote(5_000)))
          .then(
            () => 'done',
            (error: { messageKey?: string }) => error.messageKey,
          ),
      );
      const outcomes = await Promise.all(tasks);
      expect(outcomes.filter((o) => o === 'errors.computeBusy').length).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o === 'done').length).toBeGreaterThan(0);

      // A minute's thread time already spent by user 6 on another server refuses more here.
      const minute = Math.floor(clock.now().getTime() / 60_000);
      for (const m of [minute, minute + 1]) await redis.set(`${prefix}:compute:6:${m}`, '60000', 'EX', 120);
      await expect(otherServer.budget(6, 'request').run(renderTask('{{ title }}'))).rejects.toMatchObject({
        code: 'TOO_MANY_REQUESTS',
        messageKey: 'errors.computeBusy',
      });
      await expect(otherServer.budget(7, 'request').run(renderTask('{{ title }}'))).resolves.toHaveLength(1);
    } finally {
      await pool.close();
      await otherServer.close();
    }
  });
});
