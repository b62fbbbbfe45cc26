// The cost of a sign-in's password check: argon2id at our parameters, p50/p95 over 30 runs.
// Run: node_modules/.bin/node test/bench/sign-in.bench.ts
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from '../../server/domain/auth/password.ts';

const RUNS = 30;
const hash = await hashPassword('correct horse battery staple');
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  await verifyPassword(hash, 'correct horse battery staple');
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const pct = (p: number) =>
  times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]?.toFixed(1);
console.log(
  `argon2id m=${ARGON2_OPTIONS.memoryCost} KiB t=${ARGON2_OPTIONS.timeCost} p=${ARGON2_OPTIONS.parallelism}`,
);
console.log(`verify: p50 ${pct(50)} ms, p95 ${pct(95)} ms over ${RUNS} runs`);
