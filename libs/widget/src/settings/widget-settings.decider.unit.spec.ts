// Given/when/then for a workspace's widget settings.
import { deciderSpec } from '@app/testing/support/decider-spec';

import { type SetWidgetSettings, widgetSettingsDecider } from './widget-settings.decider';
import type { WidgetSettingsEvent } from './widget-settings.events';

const spec = deciderSpec(widgetSettingsDecider);
const now = new Date('2026-03-01T12:00:00.000Z');
const set = (...allowedOrigins: string[]): SetWidgetSettings => ({ type: 'SetWidgetSettings', allowedOrigins, now });
const changed = (...allowedOrigins: string[]): WidgetSettingsEvent => ({
  type: 'widget.settings_changed',
  data: { allowedOrigins, changedAt: now.toISOString() },
});

describe('widget settings decider', () => {
  it('records the allowed origins, sorted and once each', () => {
    spec.given([]).when(set('https://b.example', 'https://a.example', 'https://b.example')).then([changed('https://a.example', 'https://b.example')]);
  });

  it('records nothing for the same list in another order', () => {
    spec.given([changed('https://a.example', 'https://b.example')]).when(set('https://b.example', 'https://a.example')).then([]);
  });

  it('records an empty list (any origin again) after a non-empty one', () => {
    spec.given([changed('https://a.example')]).when(set()).then([changed()]);
  });

  it('records nothing for an empty list when none was ever set', () => {
    spec.given([]).when(set()).then([]);
  });
});

describe('widget settings decider: the buyer emails', () => {
  const settings = { enabled: true, shopName: 'Acme Cards', replyTo: 'hello@acme.example', shopUrl: 'https://shop.acme.example' };
  const setN = (s: typeof settings): SetWidgetSettings | { type: 'SetNotificationSettings'; settings: typeof settings; now: Date } => ({ type: 'SetNotificationSettings', settings: s, now });
  const changedN = (s: typeof settings): WidgetSettingsEvent => ({ type: 'widget.notification_settings_changed', data: { ...s, changedAt: now.toISOString() } });

  it('records the settings the first time, even the defaults', () => {
    spec.given([]).when(setN({ enabled: true, shopName: null as never, replyTo: null as never, shopUrl: null as never })).then([changedN({ enabled: true, shopName: null as never, replyTo: null as never, shopUrl: null as never })]);
  });
  it('records nothing for the same settings again, and a change', () => {
    spec.given([changedN(settings)]).when(setN(settings)).then([]);
    spec.given([changedN(settings)]).when(setN({ ...settings, enabled: false })).then([changedN({ ...settings, enabled: false })]);
  });
  it('keeps the origins and the email settings apart', () => {
    spec.given([changed('https://a.example'), changedN(settings)]).when(set('https://a.example')).then([]);
  });
});
