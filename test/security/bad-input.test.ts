import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { flattenMessages } from '../../src/i18n/keys.ts';
import en from '../../src/i18n/locales/en.json' with { type: 'json' };
import { createTestDeps, type TestDeps } from '../helpers/deps.ts';
import { type BadInputClass, badInputs } from './bad-inputs.ts';
import { callProcedure, fingerprint, makeFixtures, PROCEDURES, sampleInput } from './router-inventory.ts';

// Every procedure, every field, every way of spoiling it: the answer is a 4xx with a message the
// client can translate, never a 500, and no row anywhere changes.
let deps: TestDeps;
let app: Express;
const translated = new Set(flattenMessages(en).keys());
const tally = new Map<BadInputClass | 'malformed JSON', number>();
const statuses = new Map<number, number>();

/** Where a megabyte is valid: the note a browser extension sends. */
const MEGABYTE_ALLOWED = new Set(['notes.clipHtml html']);

beforeAll(async () => {
  deps = await createTestDeps();
  app = createApp(deps);
});
afterAll(async () => {
  const lines = [...tally].map(([kind, n]) => `  ${kind}: ${n}`).join('\n');
  const codes = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
  console.log(`bad input: ${PROCEDURES.length} procedures\n${lines}\n  statuses: ${codes.join(' ')}`);
  await deps.close();
});

function count(kind: BadInputClass | 'malformed JSON', status: number) {
  tally.set(kind, (tally.get(kind) ?? 0) + 1);
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
}

describe('generated bad input', () => {
  test.each(PROCEDURES)(
    '$path: 4xx with a translated message, never 500, nothing changes',
    async (procedure) => {
      // A user of its own per procedure, so a variant that is valid after all spoils no other test.
      const { fx, token } = await makeFixtures(deps);
      const variants = badInputs(sampleInput(procedure.path, fx)).filter(
        // A procedure without input ignores what it is sent; only the depth guard applies there.
        (v) => procedure.input || v.kind === 'deep nesting',
      );
      let before = await fingerprint(deps);
      for (const variant of variants) {
        const res = await callProcedure(app, procedure, variant.input, token);
        const label = `${procedure.path} ${variant.kind} at ${variant.at} → ${res.status} ${res.text.slice(0, 200)}`;
        count(variant.kind, res.status);
        expect(res.status, label).toBeLessThan(500);
        const mayBeValid =
          variant.kind === 'long string' ||
          (variant.kind === '1 MB string' && MEGABYTE_ALLOWED.has(`${procedure.path} ${variant.at}`));
        if (mayBeValid && res.status < 400) {
          before = await fingerprint(deps);
          continue;
        }
        expect(res.status, label).toBeGreaterThanOrEqual(400);
        if (res.error) {
          expect(translated, label).toContain(res.error.messageKey);
          expect(res.error.appCode, label).not.toBe('INTERNAL');
        }
        if (variant.kind === 'nul' || variant.kind === 'lone surrogate' || variant.kind === 'bad cursor') {
          expect(res.status, label).toBe(400);
        }
        if (variant.kind === 'bad date') expect(res.status, label).toBe(400);
        const after = await fingerprint(deps);
        expect(after, label).toEqual(before);
        before = after;
      }
      for (const body of ['{"json":', '{"json": {"a": 1}', '\u0000', '{"json": nul}']) {
        const res = await callProcedure(app, procedure, undefined, token, { body });
        count('malformed JSON', res.status);
        expect(res.status, `${procedure.path} malformed ${JSON.stringify(body)}: ${res.text}`).toBe(400);
      }
      expect(await fingerprint(deps)).toEqual(before);
    },
  );
});
