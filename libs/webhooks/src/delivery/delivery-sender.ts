// Turns "deliver this log event to this webhook" into one signed POST: the envelope is rebuilt from
// the log (so a replay sends the same id and the same bytes), the signing secrets are unsealed, and
// the request goes out through the SSRF-guarded sender.
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';

import { EVENT_STORE, type EventStore, publicEventId, PUBLIC_EVENT_CATALOGUE, type PublicEventCatalogue, SECRET_BOX, type SecretBox } from '@app/platform';

import { signingSecrets } from '../subscriptions/webhook.decider';
import type { StoredSecret } from '../subscriptions/webhook.events';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../webhook-settings';
import { type SendResult, WebhookSender } from './http-sender';
import { signatureHeaders, type SigningKey, signingKey } from './signing';

/** Envelopes kept in memory: one event usually goes to several webhooks within moments. */
const BODY_CACHE_SIZE = 2048;
/** Secrets kept unsealed in memory (as HMAC keys). */
const OPENED_SECRETS = 10_000;

export interface SignedTarget {
  webhookId: string;
  url: string;
  secrets: readonly StoredSecret[];
}

@Injectable()
export class DeliverySender implements OnApplicationShutdown {
  private readonly sender: WebhookSender;
  /** By `position:eventId`. */
  private readonly bodies = new Map<string, string | null>();
  /** Signing keys by sealed secret (a secret never changes under the same sealed text). */
  private readonly opened = new Map<string, SigningKey>();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @Inject(PUBLIC_EVENT_CATALOGUE) private readonly catalogue: PublicEventCatalogue,
  ) {
    // Sockets are pooled per host:port, shared by every webhook on that host: a pool as large as the
    // total concurrency means no request ever waits for a socket another webhook holds (the worker's
    // lanes bound each webhook to its own share). A smaller pool would let one hanging endpoint
    // starve its neighbours on the same host.
    this.sender = new WebhookSender({ maxSocketsPerHost: settings.concurrency });
  }

  /**
   * The exact body delivered for the public event `eventId` (its uuid key) of the stored event at
   * `position`; null when that stored event stands for no such public event.
   */
  async body(position: number, eventId: string): Promise<string | null> {
    const key = `${position}:${eventId}`;
    const cached = this.bodies.get(key);
    if (cached !== undefined) return cached;
    const [event] = await this.events.readAll({ fromPosition: position - 1, limit: 1 });
    const id = publicEventId(eventId);
    const envelope = event?.position === position ? (this.catalogue.envelopes(event).find((e) => e.id === id) ?? null) : null;
    const body = envelope ? JSON.stringify(envelope) : null;
    if (this.bodies.size >= BODY_CACHE_SIZE) this.bodies.delete(this.bodies.keys().next().value as string);
    this.bodies.set(key, body);
    return body;
  }

  /** Signs `body` with every secret signing now and POSTs it; never throws. */
  async send(target: SignedTarget, messageId: string, body: string, now: Date): Promise<SendResult> {
    const secrets = signingSecrets(target.secrets, now).map((s) => this.open(s, target.webhookId));
    return this.sender.send({
      url: target.url,
      body,
      headers: { 'content-type': 'application/json', ...signatureHeaders(body, messageId, secrets, now.getTime() / 1000) },
      timeoutMs: this.settings.timeoutMs,
      policy: this.settings.policy,
    });
  }

  onApplicationShutdown(): void {
    this.sender.close();
  }

  private open(secret: StoredSecret, webhookId: string): SigningKey {
    let key = this.opened.get(secret.sealed);
    if (key === undefined) {
      key = signingKey(this.box.open(secret.sealed, sealContext(webhookId)));
      if (this.opened.size >= OPENED_SECRETS) this.opened.delete(this.opened.keys().next().value as string);
      this.opened.set(secret.sealed, key);
    }
    return key;
  }
}

/** What a webhook secret is sealed with: moving it to another webhook's record fails to open. */
export const sealContext = (webhookId: string) => `webhook:${webhookId}`;
