// Coalesces independent stream writes: every `append` handed over within one turn of the event loop
// goes to the log in one `appendMany` — one transaction on SQLite instead of one per write, which is
// most of the cost of a small append. Each write keeps its own outcome: when the batch fails (one
// write's expected revision, say), the writes are appended again one by one, so only the write at
// fault sees its error and the others land as if they had been appended alone. Events get their id
// here, so that appending one again (after a store that is not atomic across streams wrote part of
// the batch) is recognised as the same append.
//
// It is an EventLog, so the write path (handleCommand) runs through it unchanged: reads and
// multi-stream `appendMany` calls (which must stay atomic) go straight to the store.
import { uuidv7 } from '../ids';
import type { AppendOptions, AppendResult, EventStore, NewEvent, ReadStreamOptions, RecordedEvent, StreamWrite } from './event-store.port';
import { type Outcome, TurnBatcher } from './turn-batcher';

export class AppendBatcher {
  private readonly batcher = new TurnBatcher<StreamWrite, AppendResult>((writes) => this.appendAll(writes));

  constructor(
    private readonly events: EventStore,
    /** Writes per transaction at most; a larger turn is split. */
    private readonly maxBatch = 1000,
  ) {}

  append(streamId: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    const identified = events.map((event) => (event.id ? event : { ...event, id: uuidv7() }));
    return this.batcher.add({ streamId, events: identified, expectedRevision: options.expectedRevision, prior: options.prior });
  }

  /** Straight to the store, as one (atomic, where the store is) append. */
  appendMany(writes: readonly StreamWrite[]): Promise<AppendResult[]> {
    return this.events.appendMany(writes);
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.events.readStream(streamId, options);
  }

  private async appendAll(writes: StreamWrite[]): Promise<Outcome<AppendResult>[]> {
    const outcomes: Outcome<AppendResult>[] = [];
    for (let i = 0; i < writes.length; i += this.maxBatch) outcomes.push(...(await this.appendBatch(writes.slice(i, i + this.maxBatch))));
    return outcomes;
  }

  private async appendBatch(batch: StreamWrite[]): Promise<Outcome<AppendResult>[]> {
    try {
      return (await this.events.appendMany(batch)).map((value) => ({ ok: true, value }));
    } catch (error) {
      if (batch.length === 1) return [{ ok: false, error }];
    }
    const outcomes: Outcome<AppendResult>[] = [];
    for (const write of batch) {
      try {
        outcomes.push({ ok: true, value: await this.events.append(write.streamId, write.events, { expectedRevision: write.expectedRevision, prior: write.prior }) });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }
}
