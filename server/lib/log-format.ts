// How the server's log reads. JSON lines (pino's own) for log collectors, the default when stdout is
// not a terminal; one readable line per entry for a person at a terminal. LOG_FORMAT=pretty|json
// forces either. The generated admin password is never a log entry: it is a framed block of its own.
import { ConfigError } from '../config';

export type LogFormat = 'pretty' | 'json';

/** LOG_FORMAT when set (else pretty on a terminal, JSON otherwise); a ConfigError for any other value. */
export function chooseLogFormat(env: NodeJS.ProcessEnv, isTTY: boolean): LogFormat {
  const forced = env.LOG_FORMAT?.trim().toLowerCase();
  if (!forced) return isTTY ? 'pretty' : 'json';
  if (forced === 'pretty' || forced === 'json') return forced;
  throw new ConfigError(`LOG_FORMAT must be "pretty" or "json", not "${env.LOG_FORMAT}".`);
}

const LEVELS: Record<number, [label: string, color: number]> = {
  10: ['TRACE', 90],
  20: ['DEBUG', 90],
  30: ['INFO', 32],
  40: ['WARN', 33],
  50: ['ERROR', 31],
  60: ['FATAL', 31],
};

// Fields every line has (shown in their own place or not at all) and those of the request line.
const OWN = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'reqId', 'err']);
const REQUEST = ['method', 'url', 'statusCode', 'responseTime'];

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function clock(time: unknown): string {
  if (typeof time !== 'number') return '--:--:--.---';
  const at = new Date(time);
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
}

function field(key: string, value: unknown): string {
  const text = typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return `${key}=${text}`;
}

/**
 * One pino JSON line as a person reads it: `12:03:04.567 INFO  req-1 GET /api/health 200 1.2 ms`,
 * other fields as key=value, an error's stack indented below. A line that is not pino's JSON is kept as it is.
 */
export function formatLogLine(line: string, color = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || typeof entry.level !== 'number') return line;
  const [label, code] = LEVELS[entry.level] ?? [`L${entry.level}`, 0];
  const level = color && code ? `\x1b[${code}m${label.padEnd(5)}\x1b[39m` : label.padEnd(5);
  const isRequest = typeof entry.method === 'string' && typeof entry.url === 'string' && typeof entry.statusCode === 'number';
  const text = isRequest
    ? `${entry.method} ${entry.url} ${entry.statusCode}${typeof entry.responseTime === 'number' ? ` ${entry.responseTime} ms` : ''}`
    : String(entry.msg ?? '');
  const rest = Object.entries(entry)
    .filter(([key]) => !OWN.has(key) && !(isRequest && REQUEST.includes(key)))
    .map(([key, value]) => field(key, value));
  const parts = [clock(entry.time), level, ...(typeof entry.reqId === 'string' ? [entry.reqId] : []), text, ...rest];
  const err = entry.err as { message?: unknown; stack?: unknown } | undefined;
  const stack = typeof err?.stack === 'string' ? err.stack : typeof err?.message === 'string' ? err.message : '';
  const below = stack ? `\n${stack.replace(/^/gm, '    ')}` : '';
  return parts.filter((part) => part !== '').join(' ') + below;
}

/** A stream for pino (Fastify's `logger.stream`) that writes each JSON line to `out` as a readable line. */
export function prettyStream(out: { write(text: string): unknown }, color: boolean): { write(chunk: string): void } {
  return {
    write(chunk) {
      for (const line of chunk.split('\n')) if (line.trim() !== '') out.write(`${formatLogLine(line, color)}\n`);
    },
  };
}

/** The generated admin password as a framed block of its own lines: email, password, how to change it. */
export function passwordBlock(heading: string, email: string, password: string): string {
  const lines = [
    heading,
    'It is shown only this once: keep it somewhere safe.',
    '',
    `  email:     ${email}`,
    `  password:  ${password}`,
    '',
    'To change it, stop the server, then run (see docs/server.md, "The admin account"):',
    "  ADMIN_PASSWORD='a new long password' npm run admin:password",
  ];
  const width = Math.max(...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return ['', rule, ...lines.map((line) => `| ${line.padEnd(width)} |`), rule, ''].join('\n');
}
