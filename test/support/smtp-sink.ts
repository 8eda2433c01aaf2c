// A real SMTP server for the suites (the `smtp-server` package) on 127.0.0.1 and a random port: it
// keeps every message it accepts, and can answer 4xx (a temporary failure) or be stopped and
// started again on the same port (an outage) — what a mail relay does to the app's SMTP client.
import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  from: string;
  to: string[];
  raw: string;
  /** Header names lowercased, folded lines joined. */
  headers: Record<string, string>;
  /** The text and HTML parts, quoted-printable decoded. */
  body: string;
}

/** Quoted-printable to text (soft line breaks removed, =XX bytes decoded as UTF-8). */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = /^=([0-9A-F]{2})/.exec(joined.slice(i, i + 3));
    if (hex) {
      bytes.push(parseInt(hex[1], 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export function parseEmail(raw: string, envelope: { from: string; to: string[] } = { from: '', to: [] }): ReceivedEmail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { ...envelope, raw, headers, body: decodeQuotedPrintable(raw.slice(split + 4)) };
}

export class SmtpSink {
  readonly messages: ReceivedEmail[] = [];
  /** `ok` accepts; `tempfail` answers 451 to every message. */
  mode: 'ok' | 'tempfail' = 'ok';
  /** Messages refused with 451 so far. */
  refused = 0;
  private server: SMTPServer | null = null;
  private port = 0;

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (this.mode === 'tempfail') {
            this.refused += 1;
            callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
            return;
          }
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          this.messages.push(parseEmail(Buffer.concat(chunks).toString('utf8'), { from, to: session.envelope.rcptTo.map((r) => r.address) }));
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  to(address: string): ReceivedEmail[] {
    return this.messages.filter((m) => m.to.includes(address));
  }
}

/** Polls `check` until it returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 60_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
