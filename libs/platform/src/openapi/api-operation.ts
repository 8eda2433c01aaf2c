// Describes a route for the OpenAPI document and validates its request with the same zod schemas:
// `body`, `query` and `params` check what the handler reads with @Body(), @Query() and @Param()
// (see OperationPipe). Scope and public-ness come from @RequireScope / @Public, so they are stated once.
import { applyDecorators, SetMetadata, UsePipes } from '@nestjs/common';

import { OperationPipe } from '../http/operation.pipe';
import type { ApiOperationSpec } from './api-operation-spec';

export type { ApiOperationSpec, ApiResponseSpec } from './api-operation-spec';

export const API_OPERATION = 'apiOperation';

/** Documents the route and validates the request parts it reads; the one place its schemas are named. */
export const ApiOperation = (spec: ApiOperationSpec) =>
  applyDecorators(SetMetadata(API_OPERATION, spec), UsePipes(new OperationPipe(spec)));
