// Every test file starts as it would in a process of its own. The suite runs with isolate: false,
// so a worker runs file after file in one process and the modules they share keep their state:
// what a file may have changed for the whole process is set back here, before the next begins.
import { setClock } from '../../server/clock.ts';
import { setLogLevel } from '../../server/log.ts';

type LogLevel = Parameters<typeof setLogLevel>[0];
const LOG_LEVELS: readonly string[] = ['silent', 'error', 'warn', 'info', 'debug'] satisfies LogLevel[];

// The machine's time, as the clock reads before any test sets it.
setClock(new Date());
const level = process.env.LOG_LEVEL ?? '';
setLogLevel(LOG_LEVELS.includes(level) ? (level as LogLevel) : 'info');
