// Marks a route as honouring `Idempotency-Key`. Per route rather than a global interceptor: a
// global one puts every request (GETs too) through Nest's rxjs interceptor pipeline, a large share
// of what a GET costs. The guarantee "every POST takes Idempotency-Key" is kept by a test that
// fails for any authenticated POST route without this decorator (test/openapi-coverage.int.spec.ts).
// `@Idempotent({ sensitive: true })` on routes whose answer holds a secret shown once.
import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';

import { IDEMPOTENT_OPTIONS, IDEMPOTENT_ROUTE, type IdempotentOptions } from './idempotent-options';
import { IdempotencyInterceptor } from './idempotency.interceptor';

export { IDEMPOTENT_OPTIONS, IDEMPOTENT_ROUTE, type IdempotentOptions } from './idempotent-options';

export const Idempotent = (options: IdempotentOptions = {}) =>
  applyDecorators(
    // Stays `true`: readers check it with `=== true`.
    SetMetadata(IDEMPOTENT_ROUTE, true),
    SetMetadata(IDEMPOTENT_OPTIONS, { sensitive: options.sensitive === true } satisfies IdempotentOptions),
    UseInterceptors(IdempotencyInterceptor),
  );
