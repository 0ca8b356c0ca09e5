// A real SMTP server for the email tests (smtp-server, on 127.0.0.1 only), with every accepted
// message parsed by mailparser. It can refuse messages (an SMTP server that fails) or hold one
// in DATA until released (a sender killed in the middle of sending).
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A header as it was sent (its raw value), by its lower-case name. */
  header(name: string): string | undefined;
  messageId?: string;
  parsed: ParsedMail;
}

export interface TestSmtp {
  url: string;
  received: Received[];
  /** While true, every message is refused with a 451 (a temporary failure). */
  failing: boolean;
  /** While set, a message's DATA is held until this promise resolves. */
  hold?: Promise<void>;
  /** Resolves once a message's DATA has started arriving. */
  dataStarted(): Promise<void>;
  /** The messages to `to`. */
  to(address: string): Received[];
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  let onData: (() => void) | undefined;
  const state: TestSmtp = {
    url: '',
    received: [],
    failing: false,
    dataStarted: () => new Promise<void>((resolve) => (onData = resolve)),
    to: (address) => state.received.filter((mail) => mail.to === address),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      onData?.();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void (async () => {
          if (state.hold) await state.hold;
          if (state.failing) return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          const parsed = await simpleParser(Buffer.concat(chunks));
          // A sender that went away while we held the message never got its 250: not delivered.
          if ((session as { closed?: boolean }).closed) return callback(new Error('gone'));
          state.received.push({
            to: session.envelope.rcptTo[0]?.address ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            header: (name) => parsed.headerLines.find((line) => line.key === name)?.line.replace(/^[^:]*:\s*/, ''),
            messageId: parsed.messageId,
            parsed,
          });
          callback();
        })();
      });
    },
    onClose(session) {
      (session as { closed?: boolean }).closed = true;
    },
  });
  // A sender killed mid-message resets its connection: expected here, not a failure of the test.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET') throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return state;
}

/** Waits until `check` holds (polling every 20 ms, at most `ms`). */
export async function until(check: () => boolean, ms = 10_000, what = 'the condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The first link in `text` that starts with `prefix`. */
export const linkIn = (text: string, prefix: string): string => {
  const found = text.match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\s<>"]*`));
  if (!found) throw new Error(`no link ${prefix} in: ${text}`);
  return found[0];
};
