// The buyer emails' settings as the notifications context uses them (from the validated config),
// the mailer (SMTP when SMTP_URL is set, else the outbox under DATA_DIR/outbox) and the key that
// signs unsubscribe links (derived from the SecretBox master key: never stored, never logged).
import { join } from 'node:path';

import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';

import { APP_CONFIG, type AppConfig, publicBaseUrl, SECRET_BOX, type SecretBox } from '@app/platform';

import type { NoticePolicy } from './buyer-notice/buyer-notice.decider';
import { type Mailer, OutboxMailer, SmtpMailer } from './email/mailer';
import { UNSUBSCRIBE_KEY_PURPOSE, unsubscribeToken, verifyUnsubscribeToken, type UnsubscribeSubject } from './unsubscribe/unsubscribe-token';

/** The most a retry waits. */
const MAX_RETRY_MS = 3_600_000;

@Injectable()
export class BuyerEmailSettings implements OnModuleDestroy {
  readonly policy: NoticePolicy;
  readonly maxAttempts: number;
  readonly fromAddress: string;
  readonly outbox: OutboxMailer;
  readonly mailer: Mailer;
  private readonly retryMs: number;
  private readonly unsubscribeKey: Buffer;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig, @Inject(SECRET_BOX) box: SecretBox) {
    this.policy = { windowMs: config.BUYER_EMAIL_WINDOW, leaseMs: config.BUYER_EMAIL_LEASE };
    this.maxAttempts = config.BUYER_EMAIL_MAX_ATTEMPTS;
    this.retryMs = config.BUYER_EMAIL_RETRY;
    this.fromAddress = config.SMTP_FROM;
    this.outbox = new OutboxMailer(join(config.DATA_DIR, 'outbox'));
    this.mailer = config.SMTP_URL ? new SmtpMailer(config.SMTP_URL, config.SMTP_TIMEOUT_MS) : this.outbox;
    this.unsubscribeKey = box.deriveKey(UNSUBSCRIBE_KEY_PURPOSE);
  }

  /** The address the links in an email point at: PUBLIC_BASE_URL, else the running server's, else http://localhost:PORT. */
  get baseUrl(): string {
    return publicBaseUrl(this.config);
  }

  /** The delay before attempt `attempt + 1` after attempt `attempt` failed: doubling, at most an hour. */
  retryDelay(attempt: number): number {
    return Math.min(MAX_RETRY_MS, this.retryMs * 2 ** Math.max(0, attempt - 1));
  }

  unsubscribeUrl(subject: UnsubscribeSubject): string {
    return `${this.baseUrl}/email/unsubscribe/${unsubscribeToken(this.unsubscribeKey, subject)}`;
  }

  verifyUnsubscribe(token: string): UnsubscribeSubject | null {
    return verifyUnsubscribeToken(this.unsubscribeKey, token);
  }

  onModuleDestroy(): void {
    this.mailer.close();
  }
}
