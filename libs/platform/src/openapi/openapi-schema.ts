// zod → JSON Schema 2020-12 (what OpenAPI 3.1 uses) with zod 4's own converter. Schemas named
// with `.meta({ id })` become `components.schemas` entries referenced by `$ref`, so a shape used by
// several operations is written once.
import { z } from 'zod';

export type JsonSchema = z.core.JSONSchema.JSONSchema;

const COMPONENT_REF = '#/components/schemas/';

export class SchemaComponents {
  private readonly named = new Map<string, JsonSchema>();

  /**
   * `input` for what clients send (before defaults and coercion), `output` for what the API answers.
   * Throws when two different shapes claim one name: the document would otherwise show one of them
   * for both.
   */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io, override: tidy });
    const { $schema: _dialect, $defs, ...root } = converted;
    for (const [name, def] of Object.entries($defs ?? {})) this.add(name, rewriteRefs(def));
    return rewriteRefs(root);
  }

  add(name: string, schema: JsonSchema): void {
    const existing = this.named.get(name);
    if (existing && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`OpenAPI: two different schemas are named "${name}" (zod .meta({ id }) must be unique per shape)`);
    }
    this.named.set(name, schema);
  }

  /** A schema with `$ref`s to components followed, for reading the properties of a named object. */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || !ref.startsWith(COMPONENT_REF)) return schema;
    const target = this.named.get(ref.slice(COMPONENT_REF.length));
    if (!target) throw new Error(`OpenAPI: unresolved schema reference ${ref}`);
    return this.resolve(target);
  }

  all(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.named.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}

/**
 * zod writes a long regular expression next to `format: date-time` (the format says it better) and
 * the safe-integer bounds on every `.int()` (noise to a reader).
 */
function tidy(ctx: { jsonSchema: JsonSchema }): void {
  const schema = ctx.jsonSchema;
  if (schema.format === 'date-time') delete schema.pattern;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
}

/** Points zod's local `#/$defs/X` references at the document's `#/components/schemas/X`. */
function rewriteRefs(schema: JsonSchema): JsonSchema {
  const rewritten: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) rewritten[key] = rewriteValue(key, value);
  return rewritten;
}

function rewriteValue(key: string, value: unknown): unknown {
  if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
    return `${COMPONENT_REF}${value.slice('#/$defs/'.length)}`;
  }
  if (Array.isArray(value)) return value.map((item) => rewriteValue('', item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteValue(k, v)]));
  }
  return value;
}
