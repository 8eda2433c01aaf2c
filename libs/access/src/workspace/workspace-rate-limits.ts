// A workspace's effective request rate limits: its own (set through the CLI, an event in its
// stream) or else the server's defaults from the environment.
import { Inject, Injectable } from '@nestjs/common';

import { APP_CONFIG, type AppConfig, type RateLimits } from '@app/platform';

import { DEFAULT_LIMITS } from './workspace.decider';
import type { WorkspaceLimits } from './workspace.events';
import { WorkspaceDirectory } from './workspace.queries';

/** Beyond this many cached workspaces, expired entries are dropped (and, if that is not enough, all). */
const MAX_CACHED = 10_000;

@Injectable()
export class WorkspaceRateLimits {
  /**
   * How long the guard keeps a workspace's limits before reading the read model again: a change
   * made through the CLI (or by another API process) applies within this time, and the read model
   * is not read on every request.
   */
  static readonly CACHE_TTL_MS = 1000;

  private readonly cache = new Map<string, { expiresAt: number; limits: Promise<RateLimits> }>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly directory: WorkspaceDirectory,
  ) {}

  defaults(): RateLimits {
    return { perMinute: this.config.RATE_LIMIT_PER_MINUTE, perSecond: this.config.RATE_LIMIT_PER_SECOND };
  }

  /** The limits that apply given a workspace's own ones (null or absent: the default). */
  effective(own: WorkspaceLimits = DEFAULT_LIMITS): RateLimits {
    const defaults = this.defaults();
    return { perMinute: own.perMinute ?? defaults.perMinute, perSecond: own.perSecond ?? defaults.perSecond };
  }

  /** The limits of a workspace, read at most once per CACHE_TTL_MS. */
  forWorkspace(workspaceId: string): Promise<RateLimits> {
    const now = performance.now();
    const cached = this.cache.get(workspaceId);
    if (cached && cached.expiresAt > now) return cached.limits;
    // Concurrent requests of one workspace share one read.
    const limits = this.directory.byId(workspaceId).then((doc) => this.effective(doc?.limits));
    this.remember(workspaceId, { expiresAt: now + WorkspaceRateLimits.CACHE_TTL_MS, limits });
    limits.catch(() => {
      if (this.cache.get(workspaceId)?.limits === limits) this.cache.delete(workspaceId);
    });
    return limits;
  }

  private remember(workspaceId: string, entry: { expiresAt: number; limits: Promise<RateLimits> }): void {
    if (this.cache.size >= MAX_CACHED && !this.cache.has(workspaceId)) {
      const now = performance.now();
      for (const [id, e] of this.cache) if (e.expiresAt <= now) this.cache.delete(id);
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
    }
    this.cache.set(workspaceId, entry);
  }
}
