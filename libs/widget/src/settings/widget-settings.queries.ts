// Reading a workspace's widget settings: the admin routes read the read model; the public routes'
// gate reads it through a one-second cache (no read per public request). A change decided in this
// process is put in force there at once (inForce), and a read model that has not applied it yet
// never takes it back: what is newer by stream revision wins. Another API process (several APIs on
// one MongoDB) reads the change from the read model within the cache's second.
import { Inject, Injectable } from '@nestjs/common';

import { READ_STORE, type ReadStore } from '@app/platform';

import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from './widget-settings.events';
import { WIDGET_SETTINGS, type WidgetSettingsDoc } from './widget-settings.projection';

export interface WidgetSettingsView {
  allowedOrigins: string[];
  updatedAt: string | null;
}

/** Settings at a revision of their stream (-1: never set). */
export interface VersionedWidgetSettings {
  view: WidgetSettingsView;
  revision: number;
}

const CACHE_TTL_MS = 1000;
const MAX_CACHED = 10_000;

@Injectable()
export class WidgetSettingsReader {
  private readonly cache = new Map<string, { expiresAt: number; settings: Promise<WidgetSettingsView> }>();
  /** Settings decided in this process, kept until the read model holds them (or newer ones). */
  private readonly decided = new Map<string, VersionedWidgetSettings>();

  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  /** The settings now: the read model's, or newer ones this process decided. */
  async current(workspaceId: string): Promise<WidgetSettingsView> {
    return (await this.versioned(workspaceId)).view;
  }

  /** The settings now with the revision of their stream they are at (their version). */
  async versioned(workspaceId: string): Promise<VersionedWidgetSettings> {
    const stored = await this.stored(workspaceId);
    const decided = this.decided.get(workspaceId);
    if (decided && decided.revision > stored.revision) return decided;
    if (decided && this.decided.get(workspaceId) === decided) this.decided.delete(workspaceId);
    return stored;
  }

  /** The settings, read at most once a second per workspace (what the public routes' gate enforces). */
  cached(workspaceId: string): Promise<WidgetSettingsView> {
    const now = performance.now();
    const hit = this.cache.get(workspaceId);
    if (hit && hit.expiresAt > now) return hit.settings;
    const settings = this.current(workspaceId);
    this.keep(workspaceId, settings, now);
    settings.catch(() => {
      if (this.cache.get(workspaceId)?.settings === settings) this.cache.delete(workspaceId);
    });
    return settings;
  }

  /** Puts settings just decided (at `revision` of their stream) in force for every request from now on. */
  inForce(workspaceId: string, view: WidgetSettingsView, revision: number): void {
    const known = this.decided.get(workspaceId);
    if (known && known.revision > revision) return; // an older decision answered after a newer one
    if (this.decided.size >= MAX_CACHED) this.decided.clear();
    this.decided.set(workspaceId, { view, revision });
    this.keep(workspaceId, Promise.resolve(view), performance.now());
  }

  private keep(workspaceId: string, settings: Promise<WidgetSettingsView>, now: number): void {
    if (this.cache.size >= MAX_CACHED && !this.cache.has(workspaceId)) this.cache.clear();
    this.cache.set(workspaceId, { expiresAt: now + CACHE_TTL_MS, settings });
  }

  private async stored(workspaceId: string): Promise<VersionedWidgetSettings> {
    const doc = await this.reads.collection<WidgetSettingsDoc>(WIDGET_SETTINGS).get(workspaceId);
    return { view: { allowedOrigins: doc?.allowedOrigins ?? [], updatedAt: doc?.updatedAt ?? null }, revision: doc?.revision ?? -1 };
  }
}

/** What other contexts may read of a workspace's buyer-email settings (notifications, to send them). */
export const NOTIFICATION_SETTINGS_READER = Symbol('NOTIFICATION_SETTINGS_READER');

export interface NotificationSettingsView {
  settings: NotificationSettings;
  /** When they last changed; null: never set (the defaults). */
  updatedAt: string | null;
  /** The revision of the widget settings' stream (-1: never set): the ETag. */
  revision: number;
}

export interface NotificationSettingsReader {
  notificationSettings(workspaceId: string): Promise<NotificationSettingsView>;
}

@Injectable()
export class NotificationSettingsReadModel implements NotificationSettingsReader {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async notificationSettings(workspaceId: string): Promise<NotificationSettingsView> {
    const doc = await this.reads.collection<WidgetSettingsDoc>(WIDGET_SETTINGS).get(workspaceId);
    return { settings: doc?.notifications ?? DEFAULT_NOTIFICATION_SETTINGS, updatedAt: doc?.notificationsUpdatedAt ?? null, revision: doc?.revision ?? -1 };
  }
}
