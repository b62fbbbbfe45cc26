import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);

describe('deployment files', () => {
  test('every command the compose file runs exists in package.json', () => {
    const compose = read('docker-compose.yml');
    const commands = [...compose.matchAll(/command:\s*\[\s*"npm",\s*"run",\s*"([\w:-]+)"/g)].map((m) => m[1]);
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const command of commands) expect(scripts).toContain(command);
    // Services that run our image must do so through npm scripts (nothing else to drift).
    const services = compose.split(/\n {2}(?=\w+:\n)/).filter((s) => /build: \./.test(s));
    for (const service of services) expect(service).toMatch(/command: \["npm", "run", "[\w:-]+"\]/);
  });

  test('the Dockerfile is multi-stage, runs as a non-root user, and its CMD is a package script', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^USER node$/m);
    const cmd = dockerfile.match(/^CMD \["npm", "run", "([\w:-]+)"\]/m)?.[1];
    expect(scripts).toContain(cmd);
  });
});
