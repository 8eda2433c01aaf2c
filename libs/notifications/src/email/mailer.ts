// Sending an email: nodemailer over SMTP when SMTP_URL is set, else the outbox — each message
// written as an `.eml` file under DATA_DIR/outbox/<workspaceId>/<notificationId>.eml (nodemailer's
// stream transport builds the same raw message), so `npm start` shows the whole flow with nothing
// to install. A failure is described by our own words and the SMTP reply code only: the server's
// text may quote the address, which must appear in no event and no log line.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type * as Nodemailer from 'nodemailer';
import type { Mail } from 'nodemailer';

type MessageOptions = Parameters<Mail['sendMail']>[0];

/** nodemailer, loaded when an email is first built or sent: every process (the CLI's too) would otherwise pay for it at start. */
const nodemailer = (): typeof Nodemailer => require('nodemailer') as typeof Nodemailer;

import type { NoticeError } from '../buyer-notice/buyer-notice.events';

export interface OutgoingEmail {
  workspaceId: string;
  notificationId: string;
  from: { name: string; address: string };
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post. */
  headers: Record<string, string>;
  messageId: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** The raw message nodemailer makes of an email (RFC 5322, CRLF line ends). */
export async function buildRawMessage(email: OutgoingEmail): Promise<Buffer> {
  const transport = nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await transport.sendMail(toMessage(email));
  return info.message as unknown as Buffer;
}

function toMessage(email: OutgoingEmail): MessageOptions {
  return {
    from: { name: email.from.name, address: email.from.address },
    to: email.to,
    ...(email.replyTo ? { replyTo: email.replyTo } : {}),
    subject: email.subject,
    text: email.text,
    html: email.html,
    headers: email.headers,
    messageId: email.messageId,
    date: new Date(),
  };
}

export class SmtpMailer implements Mailer {
  readonly transport = 'smtp' as const;
  private readonly smtp: Mail;

  constructor(url: string, timeoutMs: number) {
    this.smtp = nodemailer().createTransport({ url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs, logger: false, debug: false });
  }

  async send(email: OutgoingEmail): Promise<void> {
    await this.smtp.sendMail(toMessage(email));
  }

  close(): void {
    this.smtp.close();
  }
}

/** What the portal lists of the outbox: never the address. */
export interface OutboxEntry {
  notificationId: string;
  /** Bytes. */
  size: number;
  writtenAt: string;
}

export class OutboxMailer implements Mailer {
  readonly transport = 'outbox' as const;

  constructor(private readonly dir: string) {}

  private workspaceDir(workspaceId: string): string {
    return join(this.dir, safeName(workspaceId));
  }

  fileOf(workspaceId: string, notificationId: string): string {
    return join(this.workspaceDir(workspaceId), `${safeName(notificationId)}.eml`);
  }

  async send(email: OutgoingEmail): Promise<void> {
    const raw = await buildRawMessage(email);
    try {
      mkdirSync(this.workspaceDir(email.workspaceId), { recursive: true, mode: 0o700 });
      const file = this.fileOf(email.workspaceId, email.notificationId);
      // Whole or not at all: written aside, then renamed (a retry writes the same file again).
      const partial = `${file}.partial`;
      writeFileSync(partial, raw, { mode: 0o600 });
      renameSync(partial, file);
    } catch (error) {
      throw new OutboxError((error as NodeJS.ErrnoException).code ?? 'EIO');
    }
  }

  list(workspaceId: string, limit: number): OutboxEntry[] {
    let names: string[];
    try {
      names = readdirSync(this.workspaceDir(workspaceId)).filter((n) => n.endsWith('.eml'));
    } catch {
      return [];
    }
    return names
      .map((name) => {
        const stat = statSync(join(this.workspaceDir(workspaceId), name));
        return { notificationId: name.slice(0, -'.eml'.length), size: stat.size, writtenAt: stat.mtime.toISOString() };
      })
      .sort((a, b) => (a.writtenAt < b.writtenAt ? 1 : a.writtenAt > b.writtenAt ? -1 : a.notificationId < b.notificationId ? 1 : -1))
      .slice(0, limit);
  }

  read(workspaceId: string, notificationId: string): Buffer | null {
    try {
      return readFileSync(this.fileOf(workspaceId, notificationId));
    } catch {
      return null;
    }
  }

  remove(workspaceId: string, notificationId: string): void {
    rmSync(this.fileOf(workspaceId, notificationId), { force: true });
  }

  close(): void {}
}

/** Ids only ever name files inside the outbox. */
function safeName(id: string): string {
  if (!/^[A-Za-z0-9_]{1,80}$/.test(id)) throw new Error('not an id');
  return id;
}

export class OutboxError extends Error {
  constructor(readonly code: string) {
    super(`the outbox could not be written (${code})`);
  }
}

/** What a failed send records (our words and the reply code only), and whether trying again can help. */
export function describeSendError(error: unknown): { error: NoticeError; permanent: boolean } {
  const e = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : null;
  const code = typeof e.code === 'string' && /^[A-Z_]{2,20}$/.test(e.code) ? e.code : null;
  if (error instanceof OutboxError) {
    return { error: { code: 'OUTBOX_WRITE_FAILED', message: `The outbox file could not be written (${error.code})`, responseCode: null }, permanent: false };
  }
  if (responseCode !== null && responseCode >= 500) {
    return { error: { code: 'SMTP_PERMANENT', message: `The mail server refused the email for good (${responseCode})`, responseCode }, permanent: true };
  }
  if (responseCode !== null && responseCode >= 400) {
    return { error: { code: 'SMTP_TEMPORARY', message: `The mail server answered ${responseCode}: try again later`, responseCode }, permanent: false };
  }
  if (code && ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPROTOCOL', 'ETLS'].includes(code)) {
    return { error: { code: 'SMTP_UNREACHABLE', message: `The mail server could not be reached (${code})`, responseCode: null }, permanent: false };
  }
  return { error: { code: 'SEND_FAILED', message: `The email could not be sent${code ? ` (${code})` : ''}`, responseCode }, permanent: false };
}
