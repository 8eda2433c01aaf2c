// Validates a request part with a zod schema; failures are 400 VALIDATION_FAILED with every issue.
// Text that breaks the one rule for text (hostile-text.ts) is refused first, naming the field (or
// the key: a JSON key, a query parameter name).
// Routes get it through @ApiOperation (OperationPipe, one per part); a route that decodes its body
// itself first (intake's CSV rows) applies it directly.
import { type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';

import { ApiError } from './api-error';
import { findHostileText, type HostileText } from './hostile-text';

export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(
    private readonly schema: S,
    private readonly part: 'body' | 'query' | 'path' = 'body',
  ) {}

  transform(value: unknown): z.output<S> {
    if (this.part === 'body' && value === undefined) {
      throw ApiError.validation('A JSON request body is required', [{ path: '', message: 'body is required' }]);
    }
    const hostile = findHostileText(value);
    if (hostile) throw hostileTextError(hostile, this.part);
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    const first = issues[0];
    const where = first.path ? `${this.part} field "${first.path}"` : this.part;
    throw ApiError.validation(`Invalid ${where}: ${first.message}`, issues);
  }
}

/**
 * The 400 for text that breaks the one rule, naming where it is: `body field "cardName"`, or for a
 * key `body key "0.Card\u202EName"` with a message saying the key itself is the offender.
 */
export function hostileTextError(hostile: HostileText, part: string): ApiError {
  const message = hostile.key ? `the key itself contains ${hostile.found}; remove it` : `contains ${hostile.found}; remove it`;
  const where = hostile.path ? `${part} ${hostile.key ? 'key' : 'field'} "${hostile.path}"` : part;
  return ApiError.validation(`Invalid ${where}: ${message}`, [{ path: hostile.path, message }]);
}
