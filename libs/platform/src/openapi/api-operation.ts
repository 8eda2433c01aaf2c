// Describes a route for the OpenAPI document and validates its request with the same zod schemas:
// `body`, `query` and `params` check what the handler reads with @Body(), @Query() and @Param()
// (see OperationPipe). Scope and public-ness come from @RequireScope / @Public, so they are stated once.
import { applyDecorators, SetMetadata, UsePipes } from '@nestjs/common';
import type { z } from 'zod';

import { OperationPipe } from '../http/operation.pipe';

export interface ApiResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** An example body; checked against `schema` by the OpenAPI tests. */
  example?: unknown;
  /** The media type of the body; JSON unless said (e.g. `text/html` for the docs page). */
  contentType?: string;
}

export interface ApiOperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Validates `@Body()`; a missing body is `400 VALIDATION_FAILED` unless `bodyOptional`. */
  body?: z.ZodType;
  /** An absent body is validated (and handed over) as `{}`. */
  bodyOptional?: boolean;
  /** An example request body. */
  bodyExample?: unknown;
  /** Validates `@Query()`. */
  query?: z.ZodType;
  /** Validates `@Param()`, the path parameters as one object. */
  params?: z.ZodType;
  /** Success responses by status. Error responses come from `errors` and the route's auth. */
  responses: Record<number, ApiResponseSpec>;
  /** Error codes this route may answer beyond the ones every authenticated route may. */
  errors?: string[];
  /** Headers the route honours, e.g. ['Idempotency-Key']. */
  headers?: string[];
}

export const API_OPERATION = 'apiOperation';

/** Documents the route and validates the request parts it reads; the one place its schemas are named. */
export const ApiOperation = (spec: ApiOperationSpec) =>
  applyDecorators(SetMetadata(API_OPERATION, spec), UsePipes(new OperationPipe(spec)));
