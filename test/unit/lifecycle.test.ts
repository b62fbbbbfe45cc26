import { describe, expect, test } from 'vitest';
import { Lifecycle } from '../../server/lifecycle.ts';

describe('the lifecycle of a process', () => {
  test('stops what started in reverse order, once, with one drain deadline for all', async () => {
    const lifecycle = new Lifecycle();
    const stopped: string[] = [];
    const deadlines = new Set<number>();
    for (const name of ['database', 'workers', 'http']) {
      lifecycle.add(name, async (drainUntil) => {
        deadlines.add(drainUntil);
        stopped.push(name);
      });
    }
    const before = Date.now();
    const [first, second] = await Promise.all([lifecycle.stop(5_000), lifecycle.stop(0)]);
    expect([first, second]).toEqual([true, true]);
    expect(stopped).toEqual(['http', 'workers', 'database']);
    expect(deadlines.size).toBe(1);
    expect([...deadlines][0]).toBeGreaterThanOrEqual(before + 5_000);
  });

  test('a step that fails does not keep the others from stopping, and the stop reports it', async () => {
    const lifecycle = new Lifecycle();
    const stopped: string[] = [];
    lifecycle.add('database', async () => {
      stopped.push('database');
    });
    lifecycle.add('workers', async () => {
      throw new Error('stuck');
    });
    expect(await lifecycle.stop()).toBe(false);
    expect(stopped).toEqual(['database']);
  });

  test('what starts while stopping is stopped at once', async () => {
    const lifecycle = new Lifecycle();
    const stopping = lifecycle.stop();
    let stoppedLate = false;
    lifecycle.add('late', async () => {
      stoppedLate = true;
    });
    await stopping;
    expect(stoppedLate).toBe(true);
  });
});
