// Coalesces independent stream writes: every write handed over within one turn of the event loop
// goes to the log in one `appendMany` — one transaction on SQLite instead of one per write, which is
// most of the cost of a small append. Each write keeps its own outcome: when the batch fails (one
// write's expected revision, say), the writes are appended again one by one, so only the write at
// fault sees its error and the others land as if they had been appended alone. Events get their id
// here, so that appending one again (after a store that is not atomic across streams wrote part of
// the batch) is recognised as the same append.
import { uuidv7 } from '../ids';
import type { AppendResult, EventStore, StreamWrite } from './event-store.port';

interface Pending {
  write: StreamWrite;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

export class AppendBatcher {
  private pending: Pending[] = [];

  constructor(
    private readonly events: EventStore,
    /** Writes per transaction at most; a larger turn is split. */
    private readonly maxBatch = 1000,
  ) {}

  append(write: StreamWrite): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      const events = write.events.map((event) => (event.id ? event : { ...event, id: uuidv7() }));
      this.pending.push({ write: { ...write, events }, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const all = this.pending;
    this.pending = [];
    for (let i = 0; i < all.length; i += this.maxBatch) await this.appendBatch(all.slice(i, i + this.maxBatch));
  }

  private async appendBatch(batch: Pending[]): Promise<void> {
    try {
      const results = await this.events.appendMany(batch.map((p) => p.write));
      batch.forEach((p, i) => p.resolve(results[i]));
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
    }
    for (const { write, resolve, reject } of batch) {
      try {
        resolve(await this.events.append(write.streamId, write.events, { expectedRevision: write.expectedRevision }));
      } catch (error) {
        reject(error);
      }
    }
  }
}
