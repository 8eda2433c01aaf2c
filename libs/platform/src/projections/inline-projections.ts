// Inline projections: a resource's own read model is brought up to date by the write itself, right
// after its append and before it answers, so the next GET or list sees it with no wait at all —
// and no write waits for any other projection. The runner applies the same projections too (from
// its checkpoint, as ever); a document already at an event's revision is left as it is, so
// whichever comes second does nothing.
//
// Not in the append's own transaction: the log (events.db) and the read models (read.db) are two
// SQLite files, and a transaction over both is atomic per file only in WAL mode; the read store's
// transactions also span awaits, which one thread's second connection cannot wait for. So the
// write is committed first, then its documents: a crash between leaves the log ahead of the read
// model — which the runner catches up — and never the reverse. EventStoreDB + MongoDB share no
// transaction either: the same order holds there.
import type { EventStore, InlineDocuments, RecordedEvent } from '../event-store/event-store.port';
import type { Doc, ReadStore } from '../read-store/read-store.port';
import { type DocumentProjection, evolveDocument, streamEntityId, type StreamDoc } from './projection';

/** What a write appended to one stream. */
export interface WrittenStream {
  streamId: string;
  /** Revision of the stream's last event after the write. */
  revision: number;
  /** The appended events as stored, when the store returned them (else read back from the log). */
  recorded?: readonly RecordedEvent[];
  /** Without `recorded`: the types appended. */
  types?: ReadonlySet<string>;
  /** The stream's events before the write, all of them, when the writer read them (StreamWrite.prior). */
  prior?: readonly RecordedEvent[];
}

/** Whether `prior` is the whole stream before `recorded`: revisions 0, 1, … up to the first recorded. */
function wholeBefore(prior: readonly RecordedEvent[], recorded: readonly RecordedEvent[]): boolean {
  const first = recorded[0]?.revision;
  return first !== undefined && prior.length === first && (first === 0 || (prior[0].revision === 0 && prior[first - 1].revision === first - 1));
}

class Documents implements InlineDocuments {
  constructor(private readonly docs: ReadonlyMap<string, Doc | null>) {}

  get<D>(collection: string, id: string): D | null | undefined {
    return this.docs.get(key(collection, id)) as D | null | undefined;
  }
}

const key = (collection: string, id: string): string => `${collection}\u0000${id}`;

const NONE: InlineDocuments = new Documents(new Map());

type Work = ReadonlyArray<{ write: WrittenStream; projections: ReadonlySet<DocumentProjection> }>;

/** One write's documents, and the events (projection name, position) they now reflect. */
interface Applied {
  documents: InlineDocuments;
  marks: Array<readonly [string, number]>;
}

interface Queued {
  work: Work;
  resolve: (documents: InlineDocuments) => void;
  reject: (error: unknown) => void;
}

/** More marks than this for one projection: nobody is taking them (the runner stopped); dropped. */
const MAX_MARKS = 100_000;

export class InlineProjections {
  private readonly byType = new Map<string, DocumentProjection[]>();
  private queue: Queued[] = [];
  private applying = false;
  /**
   * Events whose documents a write applied, by projection name and log position: the runner of
   * this process passes over them instead of reading each document again to find it applied
   * (kept only while a runner here follows the lane: `trackApplied`).
   */
  private readonly applied = new Map<string, Set<number>>();
  private tracking = false;
  /**
   * Moves on each reset of a projection: a write whose transaction began before it may have had
   * its documents cleared by it, so its marks are not kept (the runner applies those events).
   */
  private epoch = 0;
  /** Writes queued and writes applied (or failed), for `settled`: it never waits for later ones. */
  private queued = 0;
  private done = 0;
  private idle: Array<{ target: number; resolve: () => void }> = [];

  constructor(
    private readonly events: Pick<EventStore, 'readStream'>,
    private readonly reads: ReadStore,
  ) {}

  register(projection: DocumentProjection): void {
    for (const type of projection.eventTypes) {
      const list = this.byType.get(type) ?? [];
      if (!list.includes(projection)) this.byType.set(type, [...list, projection]);
    }
  }

  /**
   * Resolves once the writes' documents queued so far are applied (at once when none are): the
   * runner waits for it before a batch, so a write's documents are applied by the write — which
   * answers from them — and the runner passes over them (see `takeApplied`).
   */
  settled(): Promise<void> {
    const target = this.queued;
    if (this.done >= target) return Promise.resolve();
    return new Promise((resolve) => this.idle.push({ target, resolve }));
  }

  /** Whether to remember the events writes applied, for a runner of this process (see `takeApplied`). */
  trackApplied(on: boolean): void {
    this.tracking = on;
    if (!on) this.applied.clear();
  }

  /** True (once) when a write applied this event to the projection's document already. */
  takeApplied(projection: string, position: number): boolean {
    return this.applied.get(projection)?.delete(position) ?? false;
  }

  /** Forgets the marks up to `upTo` (the runner is past them). */
  passedApplied(projection: string, upTo: number): void {
    const marks = this.applied.get(projection);
    if (marks) for (const position of marks) if (position <= upTo) marks.delete(position);
  }

  /** The projection was reset (its documents cleared): every mark goes, and those of writes under way. */
  resetApplied(): void {
    this.epoch += 1;
    this.applied.clear();
  }

  private mark(marks: ReadonlyArray<readonly [string, number]>, epoch: number): void {
    if (!this.tracking || epoch !== this.epoch) return;
    for (const [projection, position] of marks) {
      let set = this.applied.get(projection);
      if (!set) this.applied.set(projection, (set = new Set()));
      if (set.size >= MAX_MARKS) set.clear();
      set.add(position);
    }
  }

  /**
   * Brings the documents of every inline projection the written events concern up to the written
   * revisions, in one read-store transaction; answers them as they now are.
   */
  async project(written: readonly WrittenStream[]): Promise<InlineDocuments> {
    const work = written.flatMap((write) => {
      const types = write.recorded ? write.recorded.map((e) => e.type) : [...(write.types ?? [])];
      const projections = new Set(types.flatMap((type) => this.byType.get(type) ?? []));
      return projections.size > 0 ? [{ write, projections }] : [];
    });
    if (work.length === 0) return NONE;
    return new Promise((resolve, reject) => {
      this.queued += 1;
      this.queue.push({ work, resolve, reject });
      if (!this.applying) void this.drain();
    });
  }

  /**
   * Group commit: the writes that come while a transaction runs (or within the same turn) are
   * applied together in the next one — what costs on SQLite is the transaction, not a document.
   * A failed group is applied again write by write, so only the write at fault sees its error.
   */
  private async drain(): Promise<void> {
    this.applying = true;
    try {
      await new Promise((resolve) => setImmediate(resolve));
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.queue.length);
        await this.applyGroup(group);
        this.done += group.length;
        const ready = this.idle.filter((w) => w.target <= this.done);
        this.idle = this.idle.filter((w) => w.target > this.done);
        for (const w of ready) w.resolve();
      }
    } finally {
      this.applying = false;
    }
  }

  /** One group in one transaction; on failure, each write again alone. Settles every write's promise. */
  private async applyGroup(group: Queued[]): Promise<void> {
    try {
      let epoch = this.epoch;
      const results = await this.reads.transaction(async () => {
        epoch = this.epoch;
        const out: Applied[] = [];
        for (const item of group) out.push(await this.apply(item.work));
        return out;
      });
      group.forEach((item, i) => {
        this.mark(results[i].marks, epoch);
        item.resolve(results[i].documents);
      });
    } catch (error) {
      if (group.length === 1) return group[0].reject(error);
      for (const item of group) {
        try {
          let epoch = this.epoch;
          const applied = await this.reads.transaction(() => {
            epoch = this.epoch;
            return this.apply(item.work);
          });
          this.mark(applied.marks, epoch);
          item.resolve(applied.documents);
        } catch (single) {
          item.reject(single);
        }
      }
    }
  }

  /** One write's documents, inside the group's transaction. */
  private async apply(work: Work): Promise<Applied> {
    const docs = new Map<string, Doc | null>();
    const marks: Array<readonly [string, number]> = [];
    for (const { write, projections } of work) {
      const known = write.recorded ?? [];
      // The stream up to the write, so a document that lags it (or does not exist yet: a
      // projection whose first event comes later in the stream) is brought up without a log read.
      const context = write.recorded && write.prior && wholeBefore(write.prior, write.recorded) ? [...write.prior, ...write.recorded] : known;
      // An event of the stream, for the document's id (a projection keeps one document per stream).
      const sample = known[0] ?? (await this.events.readStream(write.streamId, { fromRevision: Math.max(0, write.revision) }))[0];
      if (!sample) continue;
      for (const projection of projections) {
        const id = projection.documentId(sample);
        docs.set(key(projection.collection.name, id), await this.bring(projection, write.streamId, id, write.revision, context));
        for (const event of known) if (projection.eventTypes.includes(event.type)) marks.push([projection.name, event.position]);
      }
    }
    return { documents: new Documents(docs), marks };
  }

  /**
   * The projection's document for a stream as the log holds it: the one a write just left (in
   * `documents`), else the read model's, brought up from the log when the log holds more — for an
   * answer about a stream a command decided nothing on (a repeat), which must show the log's state,
   * never a read model that may lag.
   */
  async document<D extends StreamDoc>(projection: DocumentProjection<D>, streamId: string, documents?: InlineDocuments | null): Promise<D | null> {
    const id = streamEntityId(streamId);
    const written = documents?.get<D>(projection.collection.name, id);
    if (written !== undefined) return written;
    const current = await this.reads.collection<D>(projection.collection).get(id);
    const newer = await this.events.readStream(streamId, { fromRevision: (current?.revision ?? -1) + 1 });
    if (newer.length === 0) return current;
    return this.reads.transaction(() => this.bring(projection, streamId, id, newer[newer.length - 1].revision, newer));
  }

  /**
   * Applies to the document the stream's events after the revision it reflects, up to `revision`:
   * those at hand, and before them any the document has not seen (its projection was rebuilt, or
   * the runner had not reached them) read from the log.
   */
  private async bring<D extends StreamDoc>(
    projection: DocumentProjection<D>,
    streamId: string,
    id: string,
    revision: number,
    known: readonly RecordedEvent[],
  ): Promise<D | null> {
    const collection = this.reads.collection<D>(projection.collection);
    const current = await collection.get(id);
    const from = (current?.revision ?? -1) + 1;
    if (from > revision) return current && current.revision > revision ? this.asAt(projection, streamId, id, revision) : current;
    const first = known[0]?.revision;
    const gap = first === undefined || first > from ? await this.events.readStream(streamId, { fromRevision: from }) : [];
    const events = [...gap.filter((e) => first === undefined || e.revision < first), ...known].filter(
      (e) => e.revision >= from && e.revision <= revision && projection.eventTypes.includes(e.type),
    );
    let doc = current;
    for (const event of events) doc = evolveDocument(projection.evolve, doc, event, id);
    if (doc === current) return current;
    if (doc === null) await collection.delete(id);
    else await collection.put(doc);
    return doc;
  }

  /**
   * The document as it stood at `revision`, folded from the stream: what a write answers when the
   * read model is already past it (the runner, or a concurrent write to the same stream, applied
   * later events first) — its answer is its own decision, never a later one. Written nowhere.
   */
  private async asAt<D extends StreamDoc>(projection: DocumentProjection<D>, streamId: string, id: string, revision: number): Promise<D | null> {
    let doc: D | null = null;
    for (const event of await this.events.readStream(streamId)) {
      if (event.revision > revision) break;
      if (projection.eventTypes.includes(event.type)) doc = evolveDocument(projection.evolve, doc, event, id);
    }
    return doc;
  }
}
