// Makes sure what the test suites need is on this machine: Debian's Chromium with CJK, Arabic
// and Thai fonts, a redis-server binary, and PostgreSQL and Redis answering. Installs with
// apt-get when it can (root on Debian/Ubuntu); otherwise says exactly what to install.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

const APT_PACKAGES = ['chromium', 'fonts-noto-cjk', 'fonts-noto-core', 'redis-server'];

function has(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

function missingPackages(): string[] {
  const missing: string[] = [];
  if (!fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) missing.push('chromium');
  if (!fs.existsSync('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'))
    missing.push('fonts-noto-cjk');
  if (!fs.existsSync('/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf'))
    missing.push('fonts-noto-core');
  if (!has('redis-server')) missing.push('redis-server');
  return missing;
}

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1500 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export async function ensurePrerequisites(): Promise<void> {
  const missing = missingPackages();
  if (missing.length) {
    const canApt = process.getuid?.() === 0 && has('apt-get');
    if (!canApt) {
      throw new Error(
        `Missing for the tests: ${missing.join(', ')}.\nInstall them, e.g.: sudo apt-get install -y ${APT_PACKAGES.join(' ')}\n` +
          '(or set CHROMIUM_PATH to a Chromium binary).',
      );
    }
    console.log(`installing ${missing.join(', ')} with apt-get…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install = spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env });
    if (install.status !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed`);
  }
  const pgUrl = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  if (!(await answers(pgUrl.hostname, Number(pgUrl.port || 5432)))) {
    throw new Error(`PostgreSQL does not answer at ${pgUrl.host}. Start it, or set TEST_DATABASE_URL.`);
  }
  const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  if (!(await answers(redisUrl.hostname, Number(redisUrl.port || 6379)))) {
    throw new Error(`Redis does not answer at ${redisUrl.host}. Start it, or set TEST_REDIS_URL.`);
  }
}
