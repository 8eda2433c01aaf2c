// Webhook subscriptions, given/when/then.
import { DomainError } from '@app/platform/domain';

import { MAX_RETIRED_SECRETS, signingSecrets, type WebhookCommand, webhookDecider, type WebhookState } from './webhook.decider';
import type { WebhookEvent } from './webhook.events';

const t0 = new Date('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const ids = { webhookId: 'wh_1', workspaceId: 'ws_1' };
const secret = (n: number, ms = 0) => ({ sealed: `sealed-${n}`, createdAt: at(ms).toISOString(), expiresAt: null });
const DAY = 86_400_000;

function given(events: WebhookEvent[]) {
  const state = events.reduce(webhookDecider.evolve, webhookDecider.initialState as WebhookState);
  return {
    state,
    when: (command: WebhookCommand) => webhookDecider.decide(command, state),
  };
}

const created = webhookDecider.decide(
  { type: 'CreateWebhook', ...ids, url: 'https://a.test/h', events: ['inventory.created'], description: null, secret: secret(1), now: t0 },
  { status: 'none' },
);

describe('webhook decider', () => {
  it('creates an enabled webhook with its sealed secret', () => {
    expect(created).toEqual([{ type: 'webhook.created', data: expect.objectContaining({ ...ids, url: 'https://a.test/h', secret: secret(1) }) }]);
    expect(given(created).state).toMatchObject({ status: 'enabled', secrets: [secret(1)] });
  });

  it('another workspace, or a deleted webhook, is NOT_FOUND', () => {
    const other = () => given(created).when({ type: 'DeleteWebhook', webhookId: 'wh_1', workspaceId: 'ws_2', now: t0 });
    expect(other).toThrow(DomainError);
    const deleted = [...created, ...given(created).when({ type: 'DeleteWebhook', ...ids, now: t0 })];
    expect(() => given(deleted).when({ type: 'EnableWebhook', ...ids, now: t0 })).toThrow(/No webhook/);
  });

  it('an update names what changed, and sending the same values changes nothing', () => {
    const [event] = given(created).when({ type: 'UpdateWebhook', ...ids, events: ['inventory.created', 'inventory.deleted'], now: at(1) });
    expect(event).toMatchObject({ type: 'webhook.updated', data: { changedFields: ['events'], url: 'https://a.test/h' } });
    expect(given(created).when({ type: 'UpdateWebhook', ...ids, url: 'https://a.test/h', now: at(1) })).toEqual([]);
  });

  it('rotation keeps the previous secret signing for the overlap, then only the new one signs', () => {
    const [rotated] = given(created).when({ type: 'RotateWebhookSecret', ...ids, secret: secret(2, 10), overlapMs: DAY, now: at(10) });
    expect(rotated).toMatchObject({ type: 'webhook.secret_rotated', data: { previous: [{ sealed: 'sealed-1', expiresAt: at(10 + DAY).toISOString() }] } });
    const state = given([...created, rotated]).state;
    if (state.status !== 'enabled') throw new Error('expected enabled');
    expect(signingSecrets(state.secrets, at(DAY)).map((s) => s.sealed)).toEqual(['sealed-2', 'sealed-1']);
    expect(signingSecrets(state.secrets, at(DAY + 11)).map((s) => s.sealed)).toEqual(['sealed-2']);
  });

  it('keeps at most a few retired secrets however often it rotates', () => {
    let history = [...created];
    for (let n = 2; n < 10; n += 1) history = [...history, ...given(history).when({ type: 'RotateWebhookSecret', ...ids, secret: secret(n, n), overlapMs: DAY, now: at(n) })];
    const state = given(history).state;
    if (state.status !== 'enabled') throw new Error('expected enabled');
    expect(state.secrets).toHaveLength(1 + MAX_RETIRED_SECRETS);
    expect(state.secrets[0].sealed).toBe('sealed-9');
  });

  it('disabling and enabling are idempotent, and enabling remembers since when it was off', () => {
    const disable = { type: 'DisableWebhook', ...ids, reason: 'gone', detail: '410', now: at(5) } as const;
    const [disabled] = given(created).when(disable);
    expect(disabled).toMatchObject({ type: 'webhook.disabled', data: { reason: 'gone', disabledAt: at(5).toISOString() } });
    expect(given([...created, disabled]).when({ ...disable, reason: 'failing' })).toEqual([]);
    const [enabled] = given([...created, disabled]).when({ type: 'EnableWebhook', ...ids, now: at(9) });
    expect(enabled).toMatchObject({ type: 'webhook.enabled', data: { disabledAt: at(5).toISOString(), enabledAt: at(9).toISOString() } });
    expect(given(created).when({ type: 'EnableWebhook', ...ids, now: at(9) })).toEqual([]);
  });
});
