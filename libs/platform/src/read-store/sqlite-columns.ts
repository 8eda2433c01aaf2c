// The embedded read store's layout for writes: every field a collection indexes is a real column of
// its table, beside the JSON document (which stays the answer). An index is built over columns, not
// over json_extract expressions, so a write rewrites only the indexes whose key changed: SQLite
// skips the indexes of an UPDATE whose columns it does not set, and the store sets only the columns
// whose value changed (bench/RESULTS.md, run 20-layout: an update 40–47 % cheaper). A field no index
// names is still found in the document by json_extract.
import type { SQLInputValue } from 'node:sqlite';

import { type CollectionSpec, fieldValue } from './read-store.port';

const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function checkedField(field: string): string {
  if (!FIELD_PATH.test(field)) throw new Error(`Invalid field name: ${field}`);
  return field;
}

/** The column of an indexed field (quoted: a dotted path is one name). */
export function columnName(field: string): string {
  return `"f_${checkedField(field)}"`;
}

/** The expression that reads a field from the document itself. */
export function documentExpr(field: string): string {
  return `json_extract(doc, '$.${checkedField(field)}')`;
}

/**
 * A field's value as its column holds it, the same as json_extract would give: true and false as
 * 1 and 0, a missing field as NULL, an object or array as its JSON text.
 */
export function columnValue(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' || typeof value === 'number') return value;
  return JSON.stringify(value);
}

/** The indexed fields of one collection and how a query names any field of it. */
export class IndexedColumns {
  private static readonly bySpec = new WeakMap<CollectionSpec, IndexedColumns>();

  /** The fields, in a stable order (first declared first), `id` excluded: it is the key. */
  readonly fields: readonly string[];
  readonly names: readonly string[];
  private readonly indexed: ReadonlySet<string>;

  private constructor(spec: CollectionSpec) {
    const fields = new Set<string>();
    for (const index of spec.indexes) for (const [field] of index.fields) if (field !== 'id') fields.add(checkedField(field));
    this.fields = [...fields];
    this.names = this.fields.map(columnName);
    this.indexed = fields;
  }

  static of(spec: CollectionSpec): IndexedColumns {
    let columns = IndexedColumns.bySpec.get(spec);
    if (!columns) {
      columns = new IndexedColumns(spec);
      IndexedColumns.bySpec.set(spec, columns);
    }
    return columns;
  }

  /** How SQL reads `field`: the key, its column, or (not indexed) from the document. */
  expr(field: string): string {
    if (field === 'id') return 'id';
    return this.indexed.has(field) ? columnName(field) : documentExpr(field);
  }

  /** The columns' values for `doc`, in the order of `fields`. */
  values(doc: unknown): SQLInputValue[] {
    return this.fields.map((field) => columnValue(fieldValue(doc, field)));
  }
}
