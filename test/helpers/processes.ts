import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { waitFor } from './wait.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * A copy of the tree as a fresh clone of it would be: every file git tracks or would track,
 * as it is in the working tree, and nothing it ignores (node_modules, dist, data).
 */
export function copyTreeLikeAClone(target: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    const from = path.join(root, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.copyFileSync(from, path.join(target, file));
  }
}

/**
 * The environment a user's shell has: no test runner's variables, no npm run's
 * node_modules/.bin on PATH (so `npm` runs on the machine's Node, as a user's would).
 */
export function userShellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = ['HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'TMPDIR', 'SHELL'];
  const env: NodeJS.ProcessEnv = {};
  for (const key of keep) if (process.env[key] !== undefined) env[key] = process.env[key];
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.includes('node_modules'))
    .join(path.delimiter);
  return { ...env, ...extra };
}

/**
 * The environment for a service a test starts for itself (a private redis-server): like the
 * machine's own services, it runs at the real time. libfaketime, which runs the suite at
 * another hour, cannot run redis-server at all (recursive clock_gettime in its allocator).
 */
export function serviceEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key === 'LD_PRELOAD' || key.startsWith('FAKETIME')) delete env[key];
  return env;
}

/** Ports nothing listens on right now, on loopback. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve) => {
          const server = net.createServer().listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Pids of processes whose command line or working directory lies under `dir`. */
export function processesUnder(dir: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      let cwd = '';
      try {
        cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        // another user's process when we are not root: its command line still tells
      }
      if (cmdline.includes(dir) || cwd === dir || cwd.startsWith(`${dir}/`)) found.push(pid);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** A command run to its end; its output kept. */
export function runToEnd(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** A long-running command whose output can be waited on, stopped by a signal. */
export class RunningCommand {
  readonly child: ChildProcess;
  output = '';
  readonly exited: Promise<number | null>;

  constructor(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (chunk) => {
      this.output += chunk;
    });
    this.child.stderr?.on('data', (chunk) => {
      this.output += chunk;
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Waits until the output contains `text`; fails early if the command exits first. */
  async waitForOutput(text: string, timeoutMs: number): Promise<void> {
    let ended = false;
    void this.exited.then(() => {
      ended = true;
    });
    await waitFor(
      async () => {
        if (this.output.includes(text)) return true;
        if (ended) throw new Error(`exited before printing "${text}":\n${this.output}`);
        return undefined;
      },
      timeoutMs,
      `"${text}"`,
    ).catch((err: Error) => {
      throw new Error(`${err.message} from ${this.child.spawnargs.join(' ')}; it printed:\n${this.output}`);
    });
  }

  /** Sends `signal` and answers how long the command took to exit, in ms. */
  async stop(signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
    const started = performance.now();
    this.child.kill(signal);
    const code = await this.exited;
    return { code, ms: performance.now() - started };
  }
}
