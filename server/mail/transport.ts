// How an email leaves: nodemailer over SMTP when SMTP_URL is set, otherwise an .eml file under
// DATA_DIR/mail (the embedded default: a person can open it in any mail program). Both are built by
// nodemailer from the same message, so what a file holds is exactly what SMTP would have carried.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/** One email as the queue holds it. */
export interface OutgoingMail {
  /** The queue row's id: part of the Message-ID, so a retry of the same row is recognisably the same message. */
  id: number;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

export interface MailTransport {
  /** Where messages go, for the log: "SMTP at host:port" or the folder. */
  readonly describe: string;
  /** Sends one message; throws when it was not accepted (the queue retries it later). */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** The Message-ID of queue row `id` from `from`'s domain. */
const messageId = (mail: OutgoingMail) =>
  `<ie-mail-${mail.id}@${mail.from.replace(/^.*@/, '').replace(/[>\s].*$/, '') || 'insightexchange.app'}>`;

const message = (mail: OutgoingMail) => ({
  from: mail.from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  headers: mail.headers,
  messageId: messageId(mail),
});

/** SMTP through nodemailer, with timeouts short enough that a hung server never outlives a claim's lease. */
export function smtpTransport(url: string): MailTransport {
  const where = new URL(url);
  const secure = where.protocol === 'smtps:';
  const transporter = nodemailer.createTransport({
    host: where.hostname.replace(/^\[|\]$/g, ''),
    port: Number(where.port) || (secure ? 465 : 587),
    secure,
    ...(where.username ? { auth: { user: decodeURIComponent(where.username), pass: decodeURIComponent(where.password) } } : {}),
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 60_000,
  });
  return {
    describe: `SMTP at ${where.hostname}:${where.port || (where.protocol === 'smtps:' ? 465 : 587)}`,
    async send(mail) {
      await transporter.sendMail(message(mail));
    },
    close: () => transporter.close(),
  };
}

/** Each message written as `<dir>/<time>-<id>.eml`. */
export function fileTransport(dir: string): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: `.eml files in ${dir}`,
    async send(mail) {
      const info = (await composer.sendMail(message(mail))) as { message: Buffer };
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      writeFileSync(join(dir, `${stamp}-${mail.id}.eml`), info.message, { mode: 0o600 });
    },
    close: () => composer.close(),
  };
}
