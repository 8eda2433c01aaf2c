// Collects the calls made within one turn of the event loop and hands them to `flush` together, on
// the next turn: with SQLite, what costs is the transaction, so many small writes (appends, acks)
// cost one. `flush` answers an outcome per item, in order; when it throws, every item fails with it.

export type Outcome<O> = { ok: true; value: O } | { ok: false; error: unknown };

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export class TurnBatcher<I, O> {
  private pending: Pending<I, O>[] = [];

  constructor(private readonly flush: (items: I[]) => Promise<Outcome<O>[]> | Outcome<O>[]) {}

  add(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.run());
    });
  }

  private async run(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    let outcomes: Outcome<O>[];
    try {
      outcomes = await this.flush(batch.map((p) => p.item));
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) p.resolve(outcome.value);
      else p.reject(outcome.error);
    });
  }
}
