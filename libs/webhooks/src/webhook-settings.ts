// The webhook settings, read once from the validated configuration.
import type { AppConfig } from '@app/platform';

import { parseDuration, parseRetrySchedule } from './delivery/retry-schedule';
import type { TargetPolicy } from './delivery/target-guard';

export interface WebhookSettings {
  /** Delay before each attempt, from the previous one (the first from the event). */
  schedule: number[];
  timeoutMs: number;
  policy: TargetPolicy;
  /** In-flight requests in total, and per webhook endpoint. */
  concurrency: number;
  concurrencyPerEndpoint: number;
  /** An endpoint whose every attempt failed for this long is disabled. */
  disableAfterMs: number;
  /** How long a rotated-out secret keeps signing. */
  secretOverlapMs: number;
  /** How often the durable schedule is polled for due attempts (restarts, other processes). */
  pollMs: number;
  /** Webhooks a workspace may have. */
  maxPerWorkspace: number;
}

export const WEBHOOK_SETTINGS = Symbol('WEBHOOK_SETTINGS');

export function webhookSettings(config: AppConfig): WebhookSettings {
  return {
    schedule: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    policy: { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS },
    concurrency: config.WEBHOOK_CONCURRENCY,
    concurrencyPerEndpoint: config.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
    disableAfterMs: parseDuration(config.WEBHOOK_DISABLE_AFTER),
    secretOverlapMs: parseDuration(config.WEBHOOK_SECRET_OVERLAP),
    pollMs: config.WEBHOOK_POLL_MS,
    maxPerWorkspace: config.WEBHOOK_MAX_PER_WORKSPACE,
  };
}
