// Validates a request part with a zod schema; failures are 400 VALIDATION_FAILED with every issue.
// Routes get it through @ApiOperation (OperationPipe, one per part); a route that decodes its body
// itself first (intake's CSV rows) applies it directly.
import { type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';

import { ApiError } from './api-error';

export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(
    private readonly schema: S,
    private readonly part: 'body' | 'query' | 'path' = 'body',
  ) {}

  transform(value: unknown): z.output<S> {
    if (this.part === 'body' && value === undefined) {
      throw ApiError.validation('A JSON request body is required', [{ path: '', message: 'body is required' }]);
    }
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    const first = issues[0];
    const where = first.path ? `${this.part} field "${first.path}"` : this.part;
    throw ApiError.validation(`Invalid ${where}: ${first.message}`, issues);
  }
}
