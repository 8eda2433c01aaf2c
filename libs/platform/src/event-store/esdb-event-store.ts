// The EventStoreDB adapter: our streams are ESDB streams, our global position is the $all commit
// position, and persistent subscription groups are real ESDB persistent subscriptions to $all.

import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  PARK,
  PersistentSubscriptionExistsError,
  persistentSubscriptionToAllSettingsFromDefaults,
  type PersistentSubscriptionToAll,
  RETRY,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';

import { uuidv7 } from '../ids';
import {
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type EventSubscription,
  type NewEvent,
  type PersistentSubscription,
  type PersistentSubscriptionEvent,
  type PersistentSubscriptionOptions,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamWrite,
  type SubscribeOptions,
  WrongExpectedRevisionError,
} from './event-store.port';
import { positionOf, safePosition, serverFilter, startAfter, toEsdbExpected, toEsdbPosition, toJson, toUserEvent } from './esdb-mapping';

/** $all has no server-side filter on reads, so filtered reads scan pages of this size. */
const READ_PAGE = 500;

export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  /** Closed with the store, so no gRPC stream outlives the client. */
  private readonly open = new Set<{ close(): Promise<void> }>();

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(streamId: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const data = events.map((event) =>
      jsonEvent({ id: event.id ?? uuidv7(), type: event.type, data: toJson(event.data), metadata: event.metadata }),
    );
    try {
      const result = await this.client.appendToStream(streamId, data, {
        expectedRevision: toEsdbExpected(options.expectedRevision),
      });
      const nextRevision = Number(result.nextExpectedRevision);
      // An idempotent retry may come back without a position: look the last event up.
      const position = safePosition(result.position?.commit) ?? (await this.positionOf(streamId, nextRevision));
      return { nextRevision, position };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      const actual = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
      throw new WrongExpectedRevisionError(streamId, options.expectedRevision, actual);
    }
  }

  async appendMany(writes: readonly StreamWrite[]): Promise<AppendResult[]> {
    const results: AppendResult[] = [];
    for (const write of writes) {
      results.push(await this.append(write.streamId, write.events, { expectedRevision: write.expectedRevision }));
    }
    return results;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return this.collectStream(streamId, { fromRevision: BigInt(options.fromRevision ?? 0), resolveLinkTos: false });
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = Math.max(1, Math.trunc(options.limit ?? 1000));
    const out: RecordedEvent[] = [];
    let from = startAfter(options.fromPosition);
    for (;;) {
      let read = 0;
      let last = from;
      const page = this.client.readAll({
        fromPosition: from > 0 ? toEsdbPosition(from) : START,
        direction: FORWARDS,
        maxCount: READ_PAGE,
      });
      for await (const resolved of page) {
        read += 1;
        const position = positionOf(resolved);
        // Reading from a position includes the event at it; ours is exclusive.
        if (position === undefined || position <= from) continue;
        last = position;
        const event = toUserEvent(resolved, options.filter);
        if (event) out.push(event);
        if (out.length >= limit) {
          await page.cancel();
          return out;
        }
      }
      if (read < READ_PAGE || last === from) return out;
      from = last;
    }
  }

  async headPosition(): Promise<number> {
    const read = this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 });
    for await (const resolved of read) return positionOf(resolved) ?? 0;
    return 0;
  }

  subscribe(options: SubscribeOptions = {}): EventSubscription {
    const maxBatch = Math.max(1, options.maxBatchSize ?? 500);
    const from = startAfter(options.fromPosition);
    const source = this.client.subscribeToAll({
      fromPosition: from > 0 ? toEsdbPosition(from) : START,
      filter: serverFilter(options.filter),
    });
    const pull = source[Symbol.asyncIterator]();
    let last = from;
    let closed = false;
    const handle: EventSubscription = {
      async *[Symbol.asyncIterator]() {
        try {
          while (!closed) {
            let next = await pull.next();
            const batch: RecordedEvent[] = [];
            while (!next.done) {
              const event = toUserEvent(next.value, options.filter);
              // Guards against a server that treats the start position as inclusive.
              if (event && event.position > last) {
                batch.push(event);
                last = event.position;
              }
              // Only what is already buffered goes into this batch: never wait to fill it.
              if (batch.length >= maxBatch || source.readableLength === 0) break;
              next = await pull.next();
            }
            if (batch.length > 0) yield batch;
            if (next.done) return;
          }
        } catch (error) {
          if (!closed) throw error;
        }
      },
      close: async () => {
        if (closed) return;
        closed = true;
        this.open.delete(handle);
        await stop(source);
      },
    };
    this.open.add(handle);
    return handle;
  }

  persistentSubscription(group: string, options: PersistentSubscriptionOptions = {}): PersistentSubscription {
    // Created eagerly so `startFrom: 'end'` is as close as possible to this call.
    const ready = this.ensureGroup(group, options);
    ready.catch(() => undefined); // reported by the iterator
    const client = this.client;
    let source: PersistentSubscriptionToAll | undefined;
    let closed = false;
    const handle: PersistentSubscription = {
      async *[Symbol.asyncIterator]() {
        await ready;
        if (closed) return;
        const sub = client.subscribeToPersistentSubscriptionToAll(group, { bufferSize: options.bufferSize ?? 10 });
        source = sub;
        try {
          for await (const resolved of sub) {
            const event = toUserEvent(resolved, options.filter);
            // The server hands events out to competing consumers: no contiguous part of the log to tell.
            if (!event || options.skip?.([event], { after: Number.NaN, upTo: Number.NaN })[0] === true) {
              // System events, events outside a client-side filter and those the consumer skips are not ours to hold.
              await sub.ack(resolved);
              continue;
            }
            const delivered: PersistentSubscriptionEvent = {
              event,
              retryCount: resolved.retryCount,
              ack: () => sub.ack(resolved),
              nack: (action, reason) => sub.nack(action === 'park' ? PARK : RETRY, reason, resolved),
            };
            yield delivered;
          }
        } catch (error) {
          if (!closed) throw error;
        }
      },
      close: async () => {
        if (closed) return;
        closed = true;
        this.open.delete(handle);
        if (source) await stop(source);
      },
    };
    this.open.add(handle);
    return handle;
  }

  async parkedEvents(group: string): Promise<RecordedEvent[]> {
    // The server parks by writing links to this stream; resolving them yields the original events.
    return this.collectStream(`$persistentsubscription-$all::${group}-parked`, {
      fromRevision: START,
      resolveLinkTos: true,
    });
  }

  async ping(): Promise<void> {
    await this.headPosition();
  }

  async close(): Promise<void> {
    await Promise.all([...this.open].map((sub) => sub.close()));
    await this.client.dispose();
  }

  private async ensureGroup(group: string, options: PersistentSubscriptionOptions): Promise<void> {
    try {
      await this.client.createPersistentSubscriptionToAll(
        group,
        persistentSubscriptionToAllSettingsFromDefaults({ startFrom: options.startFrom === 'end' ? END : START }),
        { filter: serverFilter(options.filter) },
      );
    } catch (error) {
      if (!(error instanceof PersistentSubscriptionExistsError)) throw error;
    }
  }

  private async collectStream(
    streamId: string,
    options: { fromRevision: bigint | typeof START; resolveLinkTos: boolean },
  ): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, { ...options, direction: FORWARDS })) {
        const event = toUserEvent(resolved);
        if (event) out.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  private async positionOf(streamId: string, revision: number): Promise<number> {
    const read = this.client.readStream(streamId, { fromRevision: BigInt(revision), maxCount: 1 });
    for await (const resolved of read) {
      const position = positionOf(resolved);
      if (position !== undefined) return position;
    }
    throw new Error(`Stream ${streamId}: no position for revision ${revision}`);
  }
}

/**
 * Cancelling the gRPC call does not end the client's stream (the cancellation error is swallowed
 * and no 'end' follows), so a pending read would hang: destroying it ends the iteration.
 */
async function stop(stream: { unsubscribe(): Promise<void>; destroy(): void }): Promise<void> {
  await stream.unsubscribe().catch(() => undefined);
  stream.destroy();
}
