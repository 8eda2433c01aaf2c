// Coalesces independent stream writes: every write handed over within one turn of the event loop
// goes to the log in one `appendMany` — one transaction on SQLite instead of one per write, which is
// most of the cost of a small append. Each write keeps its own outcome: when the batch fails (one
// write's expected revision, say), the writes are appended again one by one, so only the write at
// fault sees its error and the others land as if they had been appended alone. Events get their id
// here, so that appending one again (after a store that is not atomic across streams wrote part of
// the batch) is recognised as the same append.
import { uuidv7 } from '../ids';
import type { AppendResult, EventStore, StreamWrite } from './event-store.port';
import { type Outcome, TurnBatcher } from './turn-batcher';

export class AppendBatcher {
  private readonly batcher = new TurnBatcher<StreamWrite, AppendResult>((writes) => this.appendAll(writes));

  constructor(
    private readonly events: EventStore,
    /** Writes per transaction at most; a larger turn is split. */
    private readonly maxBatch = 1000,
  ) {}

  append(write: StreamWrite): Promise<AppendResult> {
    const events = write.events.map((event) => (event.id ? event : { ...event, id: uuidv7() }));
    return this.batcher.add({ ...write, events });
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
        outcomes.push({ ok: true, value: await this.events.append(write.streamId, write.events, { expectedRevision: write.expectedRevision }) });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }
}
