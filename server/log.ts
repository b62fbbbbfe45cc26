// A tiny levelled logger: one JSON line per event, so container logs stay greppable.
type Level = 'error' | 'warn' | 'info' | 'debug';
const ORDER = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 } as const;

let threshold: number = ORDER[(process.env.LOG_LEVEL as keyof typeof ORDER) ?? 'info'] ?? ORDER.info;

export function setLogLevel(level: keyof typeof ORDER): void {
  threshold = ORDER[level];
}

function write(level: Level, msg: string, fields?: Record<string, unknown>): void {
  if (ORDER[level] > threshold) return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields });
  if (level === 'error' || level === 'warn') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const log = {
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
};

export function errorFields(err: unknown): Record<string, unknown> {
  return err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
}
