// Translates the ReadStore's Mongo-style filters, sorts and cursors into SQLite SQL. How a field is
// read is the collection's (`FieldExpr`: an indexed field's column, else json_extract on the
// document, see sqlite-columns.ts); field names are emitted literally, values always bound.
import type { SQLInputValue } from 'node:sqlite';

import { type FieldCondition, type Filter, type Scalar, type SortDirection } from './read-store.port';

/** How SQL reads a field of the collection queried. */
export type FieldExpr = (field: string) => string;

export function sqlValue(value: Scalar | string | number): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

export interface SqlFragment {
  sql: string;
  params: SQLInputValue[];
}

function isOperatorObject(c: FieldCondition): c is Exclude<FieldCondition, Scalar> {
  return c !== null && typeof c === 'object';
}

function equals(expr: string, value: Scalar, params: SQLInputValue[]): string {
  if (value === null) return `${expr} IS NULL`;
  params.push(sqlValue(value));
  return `${expr} = ?`;
}

export function whereClause(filter: Filter, fieldExpr: FieldExpr): SqlFragment {
  const parts: string[] = [];
  const params: SQLInputValue[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    const expr = fieldExpr(field);
    if (!isOperatorObject(condition)) {
      parts.push(equals(expr, condition, params));
      continue;
    }
    for (const [op, operand] of Object.entries(condition)) {
      switch (op) {
        case '$eq':
          parts.push(equals(expr, operand as Scalar, params));
          break;
        case '$ne':
          // Like MongoDB, $ne also matches documents where the field is missing.
          if (operand === null) parts.push(`${expr} IS NOT NULL`);
          else {
            parts.push(`(${expr} IS NULL OR ${expr} != ?)`);
            params.push(sqlValue(operand as Scalar));
          }
          break;
        case '$in': {
          const values = operand as readonly Scalar[];
          const nonNull = values.filter((v) => v !== null);
          const alternatives: string[] = [];
          if (nonNull.length > 0) {
            alternatives.push(`${expr} IN (${nonNull.map(() => '?').join(', ')})`);
            params.push(...nonNull.map(sqlValue));
          }
          if (nonNull.length !== values.length) alternatives.push(`${expr} IS NULL`);
          parts.push(alternatives.length === 0 ? '0' : `(${alternatives.join(' OR ')})`);
          break;
        }
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte': {
          const sqlOp = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op];
          const bound = operand as string | number;
          parts.push(`${expr} ${sqlOp} ?`);
          params.push(sqlValue(bound));
          // SQLite orders every number before every text, MongoDB compares within one type only:
          // close the open side ('' is the smallest text) so `$gt: 1` skips strings and `$lt: 'b'`
          // skips numbers. Both bounds stay on the same expression, so the index still serves it.
          if (typeof bound === 'number' && (op === '$gt' || op === '$gte')) parts.push(`${expr} < ''`);
          if (typeof bound === 'string' && (op === '$lt' || op === '$lte')) parts.push(`${expr} >= ''`);
          break;
        }
        default:
          throw new Error(`Unsupported filter operator: ${op}`);
      }
    }
  }
  return { sql: parts.length > 0 ? parts.join(' AND ') : '1', params };
}

export function orderByClause(sort: ReadonlyArray<readonly [string, SortDirection]>, fieldExpr: FieldExpr): string {
  return sort.map(([field, dir]) => `${fieldExpr(field)} ${dir === 1 ? 'ASC' : 'DESC'}`).join(', ');
}

/**
 * Keyset condition "strictly after the row whose sort values are `values`", honouring each key's
 * direction and SQLite's NULL ordering (NULL is the smallest value). Because it compares values,
 * not offsets, pages stay correct while documents are inserted.
 */
export function afterClause(
  sort: ReadonlyArray<readonly [string, SortDirection]>,
  values: readonly unknown[],
  fieldExpr: FieldExpr,
): SqlFragment {
  const params: SQLInputValue[] = [];
  const alternatives: string[] = [];
  for (let i = 0; i < sort.length; i += 1) {
    const conj: string[] = [];
    for (let j = 0; j < i; j += 1) conj.push(equals(fieldExpr(sort[j][0]), values[j] as Scalar, params));
    const [field, dir] = sort[i];
    const expr = fieldExpr(field);
    const v = values[i] as Scalar;
    if (dir === 1) {
      if (v === null) conj.push(`${expr} IS NOT NULL`);
      else {
        conj.push(`${expr} > ?`);
        params.push(sqlValue(v));
      }
    } else if (v === null) {
      conj.push('0');
    } else {
      conj.push(`(${expr} < ? OR ${expr} IS NULL)`);
      params.push(sqlValue(v));
    }
    alternatives.push(`(${conj.join(' AND ')})`);
  }
  return { sql: `(${alternatives.join(' OR ')})`, params };
}
