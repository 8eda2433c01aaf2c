// The event store every writer of the process uses: the store itself, with each append followed by
// the inline projections it concerns (InlineProjections), so that whoever writes — an HTTP command,
// a process manager, a timer, the CLI — leaves the resources' own read models up to date before
// its append resolves, and answers from the documents it gets back. A write the log took but whose
// documents the read store cannot hold (full, read-only, damaged) is a RecordedNotVisibleError:
// durable, and not to be sent again.
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  EventSubscription,
  NewEvent,
  PersistentSubscription,
  PersistentSubscriptionOptions,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamWrite,
  SubscribeOptions,
} from '../event-store/event-store.port';
import { RecordedNotVisibleError, storageFaultOf } from '../sqlite/storage-fault';
import type { InlineProjections } from './inline-projections';

export class InlineEventStore implements EventStore {
  constructor(
    /** The store underneath (what subscriptions, readiness and the storage guard see). */
    readonly inner: EventStore,
    private readonly inline: InlineProjections,
  ) {}

  async append(streamId: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    const result = await this.inner.append(streamId, events, options);
    return (await this.project([{ streamId, events, prior: options.prior }], [result]))[0];
  }

  async appendMany(writes: readonly StreamWrite[]): Promise<AppendResult[]> {
    return this.project(writes, await this.inner.appendMany(writes));
  }

  private async project(writes: ReadonlyArray<Pick<StreamWrite, 'streamId' | 'events' | 'prior'>>, results: AppendResult[]): Promise<AppendResult[]> {
    const written = writes.map((write, i) => ({
      streamId: write.streamId,
      revision: results[i].nextRevision,
      recorded: results[i].recorded,
      // The stream before the write is what the write read, when it read all of it and the append
      // was its own (an idempotent repeat returns no `recorded`).
      prior: results[i].recorded ? write.prior : undefined,
      types: new Set(write.events.map((e) => e.type)),
    }));
    try {
      const documents = await this.inline.project(written);
      return results.map((result) => ({ ...result, documents }));
    } catch (error) {
      const fault = storageFaultOf(error);
      if (fault === undefined) throw error;
      throw new RecordedNotVisibleError(fault, Math.max(...results.map((r) => r.position)));
    }
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamId, options);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  subscribe(options?: SubscribeOptions): EventSubscription {
    return this.inner.subscribe(options);
  }

  persistentSubscription(group: string, options?: PersistentSubscriptionOptions): PersistentSubscription {
    return this.inner.persistentSubscription(group, options);
  }

  parkedEvents(group: string): Promise<RecordedEvent[]> {
    return this.inner.parkedEvents(group);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
