// Validates a route's parameters with the schemas of its @ApiOperation, so each schema is stated
// once and what the document shows is what is checked. @ApiOperation applies it to its route, as a
// method pipe: it runs in the handler call, after the guards and interceptors (the idempotency
// interceptor stores and replays its failures), like a parameter pipe.
import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import type { z } from 'zod';

import { type ApiOperationSpec, bodyIsOptional } from '../openapi/api-operation-spec';
import { ZodPipe } from './zod.pipe';

/** The request parts a route validates, by Nest parameter type: its spec field and decorator. */
const PARTS = {
  body: { field: 'body', decorator: '@Body()', part: 'body' },
  query: { field: 'query', decorator: '@Query()', part: 'query' },
  param: { field: 'params', decorator: '@Param()', part: 'path' },
} as const;

type PartType = keyof typeof PARTS;

export class OperationPipe implements PipeTransform {
  private readonly pipes: Partial<Record<PartType, ZodPipe<z.ZodType>>> = {};
  private readonly bodyOptional: boolean;

  constructor(private readonly spec: ApiOperationSpec) {
    for (const type of Object.keys(PARTS) as PartType[]) {
      const schema = spec[PARTS[type].field];
      if (schema) this.pipes[type] = new ZodPipe(schema, PARTS[type].part);
    }
    this.bodyOptional = spec.body !== undefined && bodyIsOptional(spec.body);
  }

  transform(value: unknown, { type, data }: ArgumentMetadata): unknown {
    // @Auth(), and whatever else a custom decorator reads, is not a request part.
    if (type === 'custom') return value;
    const { field, decorator } = PARTS[type];
    // Programming errors (500), which the route-coverage test catches first.
    if (data !== undefined) {
      const one = decorator.replace('()', `('${data}')`);
      throw new Error(`${this.spec.operationId}: ${one} reads one field; take the whole part (${decorator}), which \`${field}\` validates`);
    }
    const pipe = this.pipes[type];
    if (!pipe) throw new Error(`${this.spec.operationId}: the route reads ${decorator} but its @ApiOperation has no \`${field}\` schema`);
    if (type === 'body' && value === undefined && this.bodyOptional) return pipe.transform({});
    return pipe.transform(value);
  }
}
