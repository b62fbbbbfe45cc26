import { describe, expect, test } from 'vitest';
import { SAVE_CONCURRENCY, SaveQueue } from '../../client/features/clip/save-queue.ts';

/** A save whose answers the test gives by hand, recording what was asked and how many ran at once. */
function controlledSave() {
  const pending = new Map<string, { resolve: (created: boolean) => void; reject: (e: unknown) => void }[]>();
  const calls: string[] = [];
  let running = 0;
  let most = 0;
  const save = (url: string) =>
    new Promise<{ note: { id: string }; created: boolean; retried: boolean }>((resolve, reject) => {
      calls.push(url);
      running++;
      most = Math.max(most, running);
      const done = () => running--;
      const list = pending.get(url) ?? [];
      list.push({
        resolve: (created) => {
          done();
          resolve({ note: { id: `note-${url.length}` }, created, retried: false });
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      pending.set(url, list);
    });
  const answer = async (url: string, created: boolean | Error) => {
    const next = pending.get(url)?.shift();
    if (!next) throw new Error(`no save of ${url} is waiting`);
    if (created instanceof Error) next.reject(created);
    else next.resolve(created);
    // Let the queue take the answer and start what waits.
    await new Promise((r) => setTimeout(r, 0));
  };
  return { save, calls, answer, most: () => most };
}

const states = (queue: SaveQueue) => queue.getSnapshot().map((e) => `${e.url} ${e.state}`);

describe('the save queue', () => {
  test('each address is an entry of its own, newest first; at most two are saved at once, oldest first', async () => {
    const server = controlledSave();
    const queue = new SaveQueue(server.save);
    let changes = 0;
    queue.subscribe(() => changes++);
    queue.add(['https://a.test/1', 'https://a.test/2', 'https://a.test/3']);
    queue.add(['https://a.test/4']);
    expect(SAVE_CONCURRENCY).toBe(2);
    expect(states(queue)).toEqual([
      'https://a.test/4 waiting',
      'https://a.test/3 waiting',
      'https://a.test/2 saving',
      'https://a.test/1 saving',
    ]);
    expect(server.calls).toEqual(['https://a.test/1', 'https://a.test/2']);
    await server.answer('https://a.test/2', true);
    expect(server.calls).toEqual(['https://a.test/1', 'https://a.test/2', 'https://a.test/3']);
    await server.answer('https://a.test/1', false);
    await server.answer('https://a.test/3', true);
    await server.answer('https://a.test/4', true);
    expect(states(queue)).toEqual([
      'https://a.test/4 saved',
      'https://a.test/3 saved',
      'https://a.test/2 saved',
      'https://a.test/1 known',
    ]);
    expect(queue.getSnapshot().every((e) => e.noteId)).toBe(true);
    expect(server.most()).toBe(2);
    expect(changes).toBeGreaterThan(4);
  });

  test('an address already waiting or being saved is not queued twice; a finished one may be again', async () => {
    const server = controlledSave();
    const queue = new SaveQueue(server.save);
    queue.add(['https://a.test/x', 'https://a.test/x#part', 'https://A.test:443/x']);
    expect(states(queue)).toEqual(['https://a.test/x saving']);
    await server.answer('https://a.test/x', true);
    queue.add(['https://a.test/x']);
    expect(states(queue)).toEqual(['https://a.test/x saving', 'https://a.test/x saved']);
  });

  test('a failure keeps its reason and can be retried; a retry that finds the note its first try made reads "saved"', async () => {
    const server = controlledSave();
    const queue = new SaveQueue(server.save);
    queue.add(['https://a.test/lost']);
    const lost = new Error('network');
    await server.answer('https://a.test/lost', lost);
    const [failed] = queue.getSnapshot();
    expect(failed).toMatchObject({ state: 'failed', error: lost });
    queue.retry(failed?.id as number);
    expect(states(queue)).toEqual(['https://a.test/lost saving']);
    await server.answer('https://a.test/lost', false);
    expect(queue.getSnapshot()[0]).toMatchObject({ state: 'saved', error: null, noteId: expect.any(String) });
    expect(server.calls).toEqual(['https://a.test/lost', 'https://a.test/lost']);
  });

  test('dismiss takes off a finished or waiting entry, never one being saved; retry only retries failures', async () => {
    const server = controlledSave();
    const queue = new SaveQueue(server.save);
    queue.add(['https://a.test/1', 'https://a.test/2', 'https://a.test/3']);
    const [waiting, saving] = queue.getSnapshot();
    queue.dismiss(saving?.id as number);
    queue.retry(saving?.id as number);
    queue.dismiss(waiting?.id as number);
    expect(states(queue)).toEqual(['https://a.test/2 saving', 'https://a.test/1 saving']);
    await server.answer('https://a.test/1', true);
    await server.answer('https://a.test/2', true);
    expect(server.calls).toEqual(['https://a.test/1', 'https://a.test/2']);
    for (const entry of queue.getSnapshot()) queue.dismiss(entry.id);
    expect(queue.getSnapshot()).toEqual([]);
  });
});
