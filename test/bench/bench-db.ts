// What the in-process database benches share: the seeded benchmark user (`npm run seed:bench`)
// on BENCH_DATABASE_URL, an ORM and a raw pg client on it, and a p50/p95 timer.
import pg from 'pg';
import { User } from '../../server/db/entities/index.ts';
import { createOrm } from '../../server/db/orm.ts';

export const BENCH_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/margin_bench';

/** The ORM, a raw client, the benchmark user and how many highlights it has. */
export async function openBenchUser(url = BENCH_URL) {
  const orm = await createOrm(url, { pool: { min: 1, max: 2 } });
  const raw = new pg.Client({ connectionString: url });
  await raw.connect();
  const user = await orm.em.fork().findOneOrFail(User, { email: 'bench@example.test' });
  const [{ n: highlightCount }] = (
    await raw.query('select count(*)::int n from highlight where user_id = $1', [user.id])
  ).rows;
  return { orm, raw, user, highlightCount: highlightCount as number };
}

/** MikroORM's `?` placeholders as pg's `$n`, to run a service's SQL raw. */
export const toPg = (sql: string) => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

/** p50/p95 of `runs` samples after five warm-up ones, each a duration in ms that `sample` measures. */
export async function percentiles(
  sample: () => Promise<number>,
  runs: number,
): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 5; i++) await sample();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await sample());
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
  return { p50: at(0.5), p95: at(0.95) };
}

/** p50/p95 of `runs` calls after five warm-up calls. */
export function time(fn: () => Promise<unknown>, runs: number): Promise<{ p50: number; p95: number }> {
  return percentiles(async () => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  }, runs);
}
