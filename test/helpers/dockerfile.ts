// A small Dockerfile reader for the deployment tests: instructions grouped by stage.

export interface Instruction {
  op: string;
  args: string;
}

export interface Stage {
  name: string | undefined;
  from: string;
  instructions: Instruction[];
}

/** Instructions with continuation lines joined and comments dropped, grouped by FROM. */
export function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op = '', args = ''] = line.match(/^(\w+)\s+(.*)$/) ?? [];
    if (op.toUpperCase() === 'FROM') {
      const [, from = '', name] = args.match(/^(\S+)(?:\s+AS\s+(\S+))?/i) ?? [];
      stages.push({ name, from, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

export const instructionsOf = (stage: Stage, op: string): Instruction[] =>
  stage.instructions.filter((i) => i.op === op);

/** `COPY [--from=x] [--chown=…] src… dest` as parts. */
export function copyParts(args: string): { from: string | undefined; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  const flags = words.filter((w) => w.startsWith('--'));
  const paths = words.filter((w) => !w.startsWith('--'));
  const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

/** `ENV A=1 B=2` (the key=value form) of a stage, as one record. */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of instructionsOf(stage, 'ENV')) {
    for (const [, key = '', value = ''] of args.matchAll(/(\w+)=("[^"]*"|\S*)/g)) {
      env[key] = value.replace(/^"(.*)"$/, '$1');
    }
  }
  return env;
}
