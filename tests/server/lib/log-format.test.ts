// The log a person reads and the one a collector reads: pino's JSON line turned into a readable
// line, the choice between the two (LOG_FORMAT, a terminal or not), and the generated password's
// framed block.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../server/config';
import { chooseLogFormat, formatLogLine, passwordBlock, prettyStream } from '../../../server/lib/log-format';

// 2026-05-04 13:02:03.045 in this machine's time zone: the readable line shows local time.
const AT = new Date(2026, 4, 4, 13, 2, 3, 45).getTime();
const line = (fields: Record<string, unknown>) => JSON.stringify({ level: 30, time: AT, pid: 4242, hostname: 'box', ...fields });

describe('the readable log line', () => {
  it('turns the request line into time, level, request id, method, path, status and time taken', () => {
    const json = line({ reqId: 'req-7', method: 'GET', url: '/api/health', statusCode: 200, responseTime: 1.3, msg: 'request completed' });
    expect(formatLogLine(json)).toBe('13:02:03.045 INFO  req-7 GET /api/health 200 1.3 ms');
  });

  it('keeps the message, shows other fields as key=value, and an error with its stack indented below', () => {
    expect(formatLogLine(line({ level: 40, msg: 'database: 2 migration(s) applied', engine: 'pglite', took: { ms: 12 } }))).toBe(
      '13:02:03.045 WARN  database: 2 migration(s) applied engine=pglite took={"ms":12}',
    );
    const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at run (server.js:1:1)' };
    expect(formatLogLine(line({ level: 50, reqId: 'req-9', msg: 'request failed', err }))).toBe(
      '13:02:03.045 ERROR req-9 request failed\n    Error: boom\n        at run (server.js:1:1)',
    );
  });

  it('colours only the level, and only when asked', () => {
    expect(formatLogLine(line({ msg: 'hello' }), true)).toBe('13:02:03.045 \x1b[32mINFO \x1b[39m hello');
    expect(formatLogLine(line({ msg: 'hello' }), false)).not.toContain('\x1b[');
  });

  it('leaves a line that is not pino JSON as it is', () => {
    expect(formatLogLine('Insight Exchange listening at http://127.0.0.1:4173')).toBe(
      'Insight Exchange listening at http://127.0.0.1:4173',
    );
    expect(formatLogLine('{"not":"a log entry"}')).toBe('{"not":"a log entry"}');
  });

  it('as a stream for pino, writes one readable line per JSON line', () => {
    const written: string[] = [];
    const stream = prettyStream({ write: (text: string) => written.push(text) }, false);
    stream.write(`${line({ msg: 'one' })}\n`);
    stream.write(`${line({ msg: 'two' })}\n${line({ msg: 'three' })}\n`);
    expect(written).toEqual(['13:02:03.045 INFO  one\n', '13:02:03.045 INFO  two\n', '13:02:03.045 INFO  three\n']);
  });
});

describe('the log format', () => {
  it('is readable on a terminal and JSON otherwise, unless LOG_FORMAT says which', () => {
    expect(chooseLogFormat({}, true)).toBe('pretty');
    expect(chooseLogFormat({}, false)).toBe('json');
    expect(chooseLogFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(chooseLogFormat({ LOG_FORMAT: 'Pretty' }, false)).toBe('pretty');
    expect(() => chooseLogFormat({ LOG_FORMAT: 'fancy' }, true)).toThrow(ConfigError);
    expect(() => chooseLogFormat({ LOG_FORMAT: 'fancy' }, true)).toThrow('LOG_FORMAT must be "pretty" or "json", not "fancy".');
  });
});

describe('the generated password block', () => {
  it('frames the email, the password and how to change it, each on its own line', () => {
    const block = passwordBlock('The admin account was created with a generated password.', 'admin@example.com', 'Secret-Pass_123');
    const lines = block.split('\n');
    expect(lines[0]).toBe('');
    expect(lines.at(-1)).toBe('');
    const framed = lines.slice(1, -1);
    expect(framed[0]).toMatch(/^\+-+\+$/);
    expect(framed.at(-1)).toBe(framed[0]);
    for (const inner of framed.slice(1, -1)) expect(inner).toMatch(/^\| .* \|$/);
    expect(new Set(framed.map((text) => text.length)).size).toBe(1);
    expect(framed).toContainEqual(expect.stringMatching(/^\| {3}email: {5}admin@example\.com +\|$/));
    expect(framed).toContainEqual(expect.stringMatching(/^\| {3}password: {2}Secret-Pass_123 +\|$/));
    expect(block).toContain("ADMIN_PASSWORD='a new long password' npm run admin:password");
    expect(block).toContain('shown only this once');
  });
});
