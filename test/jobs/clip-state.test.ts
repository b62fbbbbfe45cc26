// The clip state machine, walked against a real database: every event in every state, legal
// moves and refusals, the attempt and seen-state guards, and the same event sent twice at once.
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Note, NoteContent } from '../../server/db/entities/index.ts';
import {
  CLIP_TRANSITIONS,
  type ClipEvent,
  moveClip,
  requeueClip,
} from '../../server/domain/notes/clip-state.ts';
import { ClipStatus } from '../../src/enums.ts';
import { jobIds } from '../../src/jobs.ts';
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { signedInUser } from '../helpers/users.ts';

let deps: TestDeps;
let caller: Awaited<ReturnType<typeof signedInUser>>['caller'];
beforeAll(async () => {
  deps = await createTestDeps();
  ({ caller } = await signedInUser(deps));
});
afterAll(() => deps.close());

const STATES = Object.entries(ClipStatus) as [string, ClipStatus][];
const EVENTS = Object.keys(CLIP_TRANSITIONS) as ClipEvent[];
/** The attempt every note is put at before an event; the guards name it (or another). */
const ATTEMPT = 2;
const EARLIER = new Date('2026-01-01T00:00:00Z');

interface Row {
  clip_status: number;
  clip_error: string | null;
  clip_attempts: number;
  clipped_at: string | null;
  updated_at: string;
  source: string;
}

async function row(id: string): Promise<Row> {
  const [found] = await deps.orm.em
    .fork()
    .execute<Row[]>(
      'select clip_status, clip_error, clip_attempts, clipped_at, updated_at, source from note where id = ?',
      [id],
    );
  if (!found) throw new Error(`no note ${id}`);
  return { ...found, clip_status: Number(found.clip_status), clip_attempts: Number(found.clip_attempts) };
}

let pages = 0;
/** A note (saved through the API, no worker runs here) put straight into `status` at ATTEMPT. */
async function noteIn(status: ClipStatus): Promise<string> {
  const { note } = await caller.notes.clip({ url: `https://state.example/${++pages}` });
  await deps.orm.em.fork().nativeUpdate(
    Note,
    { id: note.id },
    {
      clipStatus: status,
      clipAttempts: ATTEMPT,
      clipError: status === ClipStatus.failed ? 'fetch:earlier' : null,
      clippedAt: null,
      updatedAt: EARLIER,
    },
  );
  return note.id;
}

/** The guard a caller of the event gives: its attempt, and a reason where one is needed. */
function guardFor(event: ClipEvent, attempt = ATTEMPT) {
  const t = CLIP_TRANSITIONS[event];
  return {
    ...(t.perAttempt ? { attempt } : {}),
    ...(t.error === 'given' ? { reason: 'fetch:http_status' } : {}),
  };
}

describe('the clip transition table', () => {
  test('a saved note starts queued at attempt 1 with no reason', async () => {
    const { note } = await caller.notes.clip({ url: 'https://state.example/new' });
    expect(await row(note.id)).toMatchObject({
      clip_status: ClipStatus.queued,
      clip_attempts: 1,
      clip_error: null,
    });
    expect(CLIP_TRANSITIONS.saved).toMatchObject({ from: [], to: ClipStatus.queued });
  });

  for (const event of EVENTS) {
    const t = CLIP_TRANSITIONS[event];
    for (const [name, status] of STATES) {
      const legal = t.from.includes(status);
      test(`${event} from ${name}: ${legal ? 'moves' : 'changes nothing'}`, async () => {
        const id = await noteIn(status);
        const before = await row(id);
        const moved = await moveClip(deps.orm.em.fork(), id, event, guardFor(event));
        const after = await row(id);
        if (!legal) {
          expect(moved).toBeNull();
          expect(after).toEqual(before);
          return;
        }
        const attempts = t.attempts === 'next' ? ATTEMPT + 1 : ATTEMPT;
        expect(moved).toBe(attempts);
        expect(after.clip_status).toBe(t.to);
        expect(after.clip_attempts).toBe(attempts);
        expect(after.clip_error).toBe(
          { keep: before.clip_error, clear: null, given: 'fetch:http_status', stale: 'stale' }[t.error],
        );
        expect(after.clipped_at !== null).toBe(t.clipped === true);
        expect(new Date(after.updated_at).getTime()).toBeGreaterThan(EARLIER.getTime());
      });
    }
  }

  test('the examples: done → processing and failed → done without a start change nothing', async () => {
    const done = await noteIn(ClipStatus.done);
    const before = await row(done);
    expect(await moveClip(deps.orm.em.fork(), done, 'started', { attempt: ATTEMPT })).toBeNull();
    expect(await moveClip(deps.orm.em.fork(), done, 'resumed', { attempt: ATTEMPT })).toBeNull();
    expect(await row(done)).toEqual(before);

    const failed = await noteIn(ClipStatus.failed);
    const failedBefore = await row(failed);
    expect(await moveClip(deps.orm.em.fork(), failed, 'succeeded', { attempt: ATTEMPT })).toBeNull();
    expect(await row(failed)).toEqual(failedBefore);
  });

  test('an event for another attempt than the note is at changes nothing', async () => {
    for (const event of EVENTS.filter((e) => CLIP_TRANSITIONS[e].perAttempt)) {
      for (const status of CLIP_TRANSITIONS[event].from) {
        const id = await noteIn(status);
        const before = await row(id);
        for (const attempt of [ATTEMPT - 1, ATTEMPT + 1])
          expect(await moveClip(deps.orm.em.fork(), id, event, guardFor(event, attempt))).toBeNull();
        expect(await row(id)).toEqual(before);
      }
    }
  });

  test('an event guarded by the state the caller saw changes nothing once the note has left it', async () => {
    // The sweeper saw the note queued; a worker has since taken it.
    const id = await noteIn(ClipStatus.processing);
    const before = await row(id);
    const seen = { from: ClipStatus.queued, attempt: ATTEMPT };
    expect(await moveClip(deps.orm.em.fork(), id, 'stale-swept', seen)).toBeNull();
    expect(await moveClip(deps.orm.em.fork(), id, 'stale-given-up', seen)).toBeNull();
    expect(await row(id)).toEqual(before);
    // A state the event does not apply in is refused even when the note is in it.
    const done = await noteIn(ClipStatus.done);
    expect(await moveClip(deps.orm.em.fork(), done, 'user-retry', { from: ClipStatus.done })).toBeNull();
  });

  test('an event without the attempt or the reason it needs is a programming error', async () => {
    const id = await noteIn(ClipStatus.queued);
    await expect(moveClip(deps.orm.em.fork(), id, 'started')).rejects.toThrow(/needs the attempt/);
    await expect(
      moveClip(deps.orm.em.fork(), id, 'failed-permanently', { attempt: ATTEMPT }),
    ).rejects.toThrow(/needs a reason/);
    expect((await row(id)).clip_status).toBe(ClipStatus.queued);
  });
});

describe('the same event twice at once', () => {
  /** Every legal (event, state) whose target the event does not apply in again. */
  const once = EVENTS.filter(
    (event) => !CLIP_TRANSITIONS[event].from.includes(CLIP_TRANSITIONS[event].to),
  ).flatMap((event) => CLIP_TRANSITIONS[event].from.map((status) => [event, status] as const));

  test.each(once)('%s from %s moves the note once', async (event, status) => {
    const id = await noteIn(status);
    // The first holds the row (its transaction open) while the second is sent and waits for the
    // lock; when the first commits, the second finds the note moved and leaves it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first: number | null | undefined;
    const firstTx = deps.orm.em.fork().transactional(async (tem) => {
      first = await moveClip(tem, id, event, guardFor(event));
      await held;
    });
    await expect.poll(() => first).not.toBeUndefined();
    const second = moveClip(deps.orm.em.fork(), id, event, guardFor(event));
    await expect
      .poll(async () => {
        const [waiting] = await deps.orm.em.fork().execute<{ n: string }[]>(
          `select count(*) as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return Number(waiting?.n);
      })
      .toBe(1);
    release();
    await firstTx;
    expect(first).not.toBeNull();
    expect(await second).toBeNull();
    const after = await row(id);
    expect(after.clip_status).toBe(CLIP_TRANSITIONS[event].to);
    expect(after.clip_attempts).toBe(CLIP_TRANSITIONS[event].attempts === 'next' ? ATTEMPT + 1 : ATTEMPT);

    // And ten at once, each on its own connection: one moves.
    const again = await noteIn(status);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => moveClip(deps.orm.em.fork(), again, event, guardFor(event))),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  test('two pages sent again at once each move the note: each brings HTML of its own to parse', async () => {
    const id = await noteIn(ClipStatus.queued);
    const results = await Promise.all([0, 1].map(() => moveClip(deps.orm.em.fork(), id, 'html-saved-again')));
    expect(results.sort()).toEqual([ATTEMPT + 1, ATTEMPT + 2]);
    expect(await row(id)).toMatchObject({ clip_status: ClipStatus.queued, clip_attempts: ATTEMPT + 2 });
  });
});

describe('requeueing', () => {
  test("a move queues that attempt's job; a refused one queues nothing", async () => {
    const failed = await noteIn(ClipStatus.failed);
    expect(await requeueClip(deps.orm.em.fork(), deps.queues, failed, 'user-retry')).toBe(true);
    const job = await deps.queues.clip.getJob(jobIds.clip(failed, ATTEMPT + 1));
    expect(job?.data).toEqual({ noteId: failed, attempt: ATTEMPT + 1 });
    expect(await requeueClip(deps.orm.em.fork(), deps.queues, failed, 'user-retry')).toBe(false);
    expect(await deps.queues.clip.getJob(jobIds.clip(failed, ATTEMPT + 2))).toBeUndefined();

    const done = await noteIn(ClipStatus.done);
    expect(await requeueClip(deps.orm.em.fork(), deps.queues, done, 'saved-again')).toBe(false);
    expect(await deps.queues.clip.getJob(jobIds.clip(done, ATTEMPT + 1))).toBeUndefined();
  });

  test('a Note passed in is refreshed; writes made alongside commit with the move or not at all', async () => {
    const id = await noteIn(ClipStatus.done);
    const em = deps.orm.em.fork();
    const note = await em.findOneOrFail(Note, { id });
    const alongside = (html: string) => async (tem: EntityManager) => {
      await tem.upsert(NoteContent, { note: id, originalHtml: html });
    };
    expect(
      await requeueClip(em, deps.queues, note, 'html-saved-again', { within: alongside('<p>kept</p>') }),
    ).toBe(true);
    expect(note).toMatchObject({ clipStatus: ClipStatus.queued, clipAttempts: ATTEMPT + 1 });

    // The sweeper's guard: it saw the note processing, which it no longer is.
    const refused = await requeueClip(deps.orm.em.fork(), deps.queues, id, 'stale-swept', {
      from: ClipStatus.processing,
      attempt: ATTEMPT + 1,
      within: alongside('<p>dropped</p>'),
    });
    expect(refused).toBe(false);
    const content = await deps.orm.em
      .fork()
      .findOneOrFail(NoteContent, { note: id }, { populate: ['originalHtml'] });
    expect(content.originalHtml).toBe('<p>kept</p>');
    expect((await row(id)).clip_attempts).toBe(ATTEMPT + 1);
  });
});
