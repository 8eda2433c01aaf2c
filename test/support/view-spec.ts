// Given/when/then for view projections: given documents, when events, then documents — the view's
// pure evolve driven against collections in memory, no store at all. The filter subset and the
// sort follow the ReadStore port (equality, $eq/$ne/$in and ranges AND-ed; `id` breaks ties).
// `@app/testing/support/view-spec`.
import type { Doc, FieldCondition, Filter, FindOptions, Page, RecordedEvent, Scalar, ViewEffect, ViewProjection, ViewStep } from '@app/platform';

/** Documents by collection name. */
export type Documents = Record<string, Doc[]>;

export function viewSpec(projection: ViewProjection) {
  return {
    given(documents: Documents = {}) {
      return {
        when(...events: RecordedEvent[]) {
          const run = (): Documents => {
            const memory = new MemoryViews(documents);
            for (const event of events) if (projection.eventTypes.includes(event.type)) memory.run(projection.evolve(event));
            return memory.documents();
          };
          return {
            /** Every collection named in `expected` holds exactly these documents (in id order). */
            then(expected: Documents): void {
              const after = run();
              for (const [name, docs] of Object.entries(expected)) expect(after[name] ?? []).toEqual(sortById(docs));
            },
            /** The documents after the events, for finer assertions. */
            documents: run,
          };
        },
      };
    },
  };
}

/** Collections in memory, performing a view step's effects. */
export class MemoryViews {
  private readonly collections = new Map<string, Map<string, Doc>>();

  constructor(documents: Documents = {}) {
    for (const [name, docs] of Object.entries(documents)) this.collection(name, docs);
  }

  run<R>(step: ViewStep<R>): R {
    let next = step.next();
    while (!next.done) next = step.next(this.perform(next.value));
    return next.value;
  }

  documents(): Documents {
    const out: Documents = {};
    for (const [name, docs] of this.collections) out[name] = sortById([...docs.values()]);
    return out;
  }

  private collection(name: string, seed: readonly Doc[] = []): Map<string, Doc> {
    let docs = this.collections.get(name);
    if (!docs) {
      docs = new Map();
      this.collections.set(name, docs);
    }
    for (const doc of seed) docs.set(doc.id, structuredClone(doc));
    return docs;
  }

  private perform(effect: ViewEffect): unknown {
    const docs = this.collection(effect.collection.name);
    const copy = <T>(value: T): T => structuredClone(value);
    switch (effect.op) {
      case 'get':
        return copy(docs.get(effect.id) ?? null);
      case 'getMany':
        return effect.ids.flatMap((id) => (docs.has(id) ? [copy(docs.get(id) as Doc)] : []));
      case 'find':
        return find([...docs.values()], effect.filter, effect.options);
      case 'put':
        docs.set(effect.doc.id, copy(effect.doc));
        return undefined;
      case 'delete':
        return docs.delete(effect.id);
    }
  }
}

function find(docs: Doc[], filter: Filter, options: FindOptions = {}): Page<Doc> {
  const keys = [...(options.sort ?? [])];
  const direction = keys.length > 0 ? keys[keys.length - 1][1] : 1;
  keys.push(['id', direction]);
  const matching = docs
    .filter((doc) => Object.entries(filter).every(([field, condition]) => matches(valueAt(doc, field), condition)))
    .sort((a, b) => {
      for (const [field, dir] of keys) {
        const order = compare(valueAt(a, field), valueAt(b, field));
        if (order !== 0) return order * dir;
      }
      return 0;
    });
  const start = options.after ? Number(options.after) : 0;
  const limit = options.limit ?? 100;
  const items = matching.slice(start, start + limit).map((doc) => structuredClone(doc));
  return { items, nextCursor: start + limit < matching.length ? String(start + limit) : null };
}

function valueAt(doc: Doc, field: string): unknown {
  let value: unknown = doc;
  for (const part of field.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value === undefined ? null : value;
}

function matches(value: unknown, condition: FieldCondition): boolean {
  if (condition === null || typeof condition !== 'object') return value === condition;
  const c = condition;
  if (c.$eq !== undefined && value !== c.$eq) return false;
  if (c.$ne !== undefined && value === c.$ne) return false;
  if (c.$in !== undefined && !c.$in.includes(value as Scalar)) return false;
  if (c.$gt !== undefined && !(value !== null && compare(value, c.$gt) > 0)) return false;
  if (c.$gte !== undefined && !(value !== null && compare(value, c.$gte) >= 0)) return false;
  if (c.$lt !== undefined && !(value !== null && compare(value, c.$lt) < 0)) return false;
  if (c.$lte !== undefined && !(value !== null && compare(value, c.$lte) <= 0)) return false;
  return true;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return (a as string | number) < (b as string | number) ? -1 : 1;
}

function sortById(docs: readonly Doc[]): Doc[] {
  return [...docs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
