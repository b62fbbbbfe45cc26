// Where a process spent its CPU: reads a V8 .cpuprofile (`node --cpu-prof`) and prints the
// self time per package (superjson, @mikro-orm, pg, @trpc, zod, ours, node internals, …) and the
// ten functions with the most self time. Built-ins without a script of their own (JSON.parse, a
// RegExp) count towards the package that called them. Idle time is left out of the shares.
// Usage: node test/bench/cpu-profile-top.ts <file.cpuprofile> [--from-ms N] [--to-ms N]
// (--from-ms/--to-ms keep only the samples taken that long after the profile started).
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Packages that ship as several: counted as one. */
const FAMILIES: [RegExp, string][] = [
  [/^@mikro-orm\//, '@mikro-orm'],
  [/^@trpc\//, '@trpc'],
  [/^(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-\w+)$/, 'pg'],
];

/** V8's own entries, which are not functions: grouped under their own names. */
const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)']);

function packageOfUrl(url: string): string | null {
  if (!url) return null;
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first = '', second = ''] = url.slice(modules + '/node_modules/'.length).split('/');
    const name = first.startsWith('@') ? `${first}/${second}` : first;
    return FAMILIES.find(([pattern]) => pattern.test(name))?.[1] ?? name;
  }
  if (url.startsWith('node:') || !url.includes('/')) return 'node internals';
  if (url.includes(ROOT)) return 'ours';
  return 'other';
}

export interface ProfileTop {
  busyMs: number;
  idleMs: number;
  packages: { name: string; ms: number; share: number }[];
  functions: { name: string; where: string; group: string; ms: number; share: number }[];
}

/** Self time per package and per function over the samples between `fromMs` and `toMs`. */
export function profileTop(profile: CpuProfile, fromMs = 0, toMs = Number.POSITIVE_INFINITY): ProfileTop {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const groupCache = new Map<number, string>();
  const groupOf = (id: number): string => {
    const cached = groupCache.get(id);
    if (cached) return cached;
    const node = byId.get(id);
    const frame = node?.callFrame;
    let group = !frame
      ? 'node internals'
      : SPECIAL.has(frame.functionName)
        ? frame.functionName
        : packageOfUrl(frame.url);
    if (group === null) {
      const up = parent.get(id);
      group =
        up === undefined || byId.get(up)?.callFrame.functionName === '(root)' ? 'V8 built-ins' : groupOf(up);
    }
    groupCache.set(id, group);
    return group;
  };

  const selfUs = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    const ms = at / 1000;
    if (ms < fromMs || ms > toMs) return;
    // A sample's time is the gap to the next one.
    const span = profile.timeDeltas[i + 1] ?? delta;
    selfUs.set(id, (selfUs.get(id) ?? 0) + span);
  });

  const packages = new Map<string, number>();
  const functions = new Map<string, { name: string; where: string; group: string; us: number }>();
  let idleUs = 0;
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const group = groupOf(id);
    if (group === '(idle)') {
      idleUs += us;
      continue;
    }
    busyUs += us;
    packages.set(group, (packages.get(group) ?? 0) + us);
    const frame = byId.get(id)?.callFrame;
    const name = frame?.functionName || '(anonymous)';
    const where = frame?.url
      ? `${frame.url
          .replace(/^file:\/\//, '')
          .replace(`${ROOT}/`, '')
          .replace(/^.*\/node_modules\//, '')}:${frame.lineNumber + 1}`
      : '';
    const key = `${name} ${where}`;
    const entry = functions.get(key) ?? { name, where, group, us: 0 };
    entry.us += us;
    functions.set(key, entry);
  }
  const share = (us: number) => (busyUs ? us / busyUs : 0);
  return {
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    packages: [...packages]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({ name, ms: us / 1000, share: share(us) })),
    functions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .map((f) => ({ name: f.name, where: f.where, group: f.group, ms: f.us / 1000, share: share(f.us) })),
  };
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
}

const pct = (share: number) => `${(share * 100).toFixed(1)}%`.padStart(6);

/** The two tables as text: the top packages and the top functions by self time. */
export function formatTop(top: ProfileTop, rows = 10): string {
  const lines = [
    `busy ${top.busyMs.toFixed(0)} ms, idle ${top.idleMs.toFixed(0)} ms (shares are of busy time)`,
    '',
    'package              | self ms | share',
    '---------------------|---------|------',
    ...top.packages
      .slice(0, rows)
      .map((p) => `${p.name.padEnd(20)} | ${p.ms.toFixed(0).padStart(7)} | ${pct(p.share)}`),
    '',
    'function                         | package            | self ms | share | where',
    '---------------------------------|--------------------|---------|-------|------',
    ...top.functions
      .slice(0, rows)
      .map(
        (f) =>
          `${f.name.slice(0, 32).padEnd(32)} | ${f.group.slice(0, 18).padEnd(18)} | ${f.ms.toFixed(0).padStart(7)} | ${pct(f.share)} | ${f.where}`,
      ),
  ];
  return lines.join('\n');
}

if (import.meta.main) {
  const [file] = process.argv.slice(2);
  if (!file) throw new Error('usage: cpu-profile-top.ts <file.cpuprofile> [--from-ms N] [--to-ms N]');
  const flag = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? Number(process.argv[i + 1]) : undefined;
  };
  console.log(formatTop(profileTop(readProfile(file), flag('from-ms'), flag('to-ms'))));
}
