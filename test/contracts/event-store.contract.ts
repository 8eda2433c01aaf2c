// The one contract suite every EventStore adapter runs (see *.int.spec.ts next to each adapter).
// Stream names, event types and group names are unique per test, so it also runs on a shared ESDB.
// Each part of the port is checked in its own file under event-store/; this file composes them.
import { randomUUID } from 'node:crypto';

import type { EventStore } from '@app/platform/event-store/event-store.port';

import { appendContract } from './event-store/append.contract';
import { catchUpSubscriptionContract } from './event-store/catch-up.contract';
import { persistentSubscriptionContract } from './event-store/persistent.contract';
import { readingContract } from './event-store/reading.contract';
import type { ContractContext, EventStoreFixture } from './event-store/support';

export { type ContractContext, newEvent, Puller, type TestEvent } from './event-store/support';

export function eventStoreContract(name: string, open: () => Promise<ContractContext>): void {
  describe(`EventStore contract: ${name}`, () => {
    let ctx: ContractContext;
    let store: EventStore;
    let prefix: string;
    const closers: { close(): Promise<void> }[] = [];
    const fixture: EventStoreFixture = {
      get ctx() {
        return ctx;
      },
      get store() {
        return store;
      },
      get prefix() {
        return prefix;
      },
      stream: (suffix = 'a') => `${prefix}${suffix}`,
      byPrefix: () => ({ streamPrefixes: [prefix] }),
      track: (closable) => {
        closers.push(closable);
        return closable;
      },
      reopen: async () => {
        store = await ctx.reopen();
        return store;
      },
    };

    beforeEach(async () => {
      ctx = await open();
      store = ctx.store;
      prefix = `contract_${randomUUID().replace(/-/g, '')}-`;
    });

    afterEach(async () => {
      await Promise.all(closers.splice(0).map((c) => c.close()));
      await ctx.cleanup();
    });

    appendContract(fixture);
    readingContract(fixture);
    catchUpSubscriptionContract(fixture);
    persistentSubscriptionContract(fixture);
  });
}
