// Every error code the API answers with: its status, when it happens and an example body. The
// OpenAPI document, its error table and the tests all read this one list, so a code used in an
// `@ApiOperation({ errors })` but missing here fails the document build instead of going unstated.
import { z } from 'zod';

import type { ErrorBody } from '../http/api-error';

export interface ErrorCodeSpec {
  status: number;
  when: string;
  example: ErrorBody;
}

export const ERROR_CATALOG: Readonly<Record<string, ErrorCodeSpec>> = {
  VALIDATION_FAILED: {
    status: 400,
    when: 'a field is missing, of the wrong type, out of range, or unknown; `details.issues` lists each `{path, message}`',
    example: {
      code: 'VALIDATION_FAILED',
      message: 'Invalid body field "maxPrice": Invalid input: expected number, received string',
      details: { issues: [{ path: 'maxPrice', message: 'Invalid input: expected number, received string' }] },
    },
  },
  INVALID_JSON: {
    status: 400,
    when: 'the body is not valid JSON',
    example: { code: 'INVALID_JSON', message: 'The request body is not valid JSON' },
  },
  INVALID_REQUEST: {
    status: 400,
    when:
      'the request itself is malformed: a bad URL encoding, a wrong Content-Length, or broken HTTP framing (request line, header line, Transfer-Encoding with Content-Length, chunk sizes; `details.parserError` names the parser\'s rule and the connection is closed)',
    example: {
      code: 'INVALID_REQUEST',
      message: "Invalid Content-Length header: Content-Length can't be present with Transfer-Encoding",
      details: { parserError: 'HPE_INVALID_CONTENT_LENGTH' },
    },
  },
  UNAUTHORIZED: {
    status: 401,
    when: 'API key missing or invalid',
    example: { code: 'UNAUTHORIZED', message: 'Missing API key: send the header "Authorization: Bearer <API key>"' },
  },
  CSRF_TOKEN_INVALID: {
    status: 403,
    when: 'a change made with a portal session cookie lacks the session\'s CSRF token in `X-CSRF-Token` (API keys need none)',
    example: { code: 'CSRF_TOKEN_INVALID', message: 'A change made with a portal session needs its CSRF token in the X-CSRF-Token header' },
  },
  SIGN_IN_REFUSED: {
    status: 401,
    when: 'portal sign-in: the workspace, email and password do not match, or the sign-in link was used, expired or never issued (one answer for all)',
    example: { code: 'SIGN_IN_REFUSED', message: 'Sign-in refused: the workspace, email and password do not match, or the link is not valid (links work once, for 30 minutes)' },
  },
  INSUFFICIENT_SCOPE: {
    status: 403,
    when: 'the key lacks the route\'s scope; `details.requiredScope` names it',
    example: {
      code: 'INSUFFICIENT_SCOPE',
      message: 'This API key lacks the required scope: write:requests',
      details: { requiredScope: 'write:requests' },
    },
  },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    when: "the want-list widget's public routes, from a page of an origin the seller did not allow (`PUT /api/v1/widget/settings`); answered without CORS headers, so the page cannot read it",
    example: { code: 'ORIGIN_NOT_ALLOWED', message: 'Seller acme does not allow its widget on pages of https://elsewhere.example', details: { origin: 'https://elsewhere.example' } },
  },
  NOT_FOUND: {
    status: 404,
    when: 'no such resource (or route) in this workspace',
    example: { code: 'NOT_FOUND', message: 'No buyer request with id br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3' },
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    when: 'a path that exists, asked with a method it does not have; the `Allow` header and `details.allowed` list its methods (`HEAD` goes with every `GET`). An unknown path is `404 NOT_FOUND`',
    example: {
      code: 'METHOD_NOT_ALLOWED',
      message: 'Method DELETE is not allowed on /api/v1/buyer-requests (allowed: GET, HEAD, POST)',
      details: { method: 'DELETE', allowed: ['GET', 'HEAD', 'POST'] },
    },
  },
  CONFLICT: {
    status: 409,
    when: 'a unique value is taken, or a concurrent change won; retry',
    example: { code: 'CONFLICT', message: 'The resource was changed concurrently; retry the request' },
  },
  INVALID_TRANSITION: {
    status: 409,
    when: 'the resource\'s state does not allow the operation; `details` names `from`, `to` and the `allowed` moves where there are some',
    example: {
      code: 'INVALID_TRANSITION',
      message: 'Trade trd_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3 cannot go from initiated to shipped (allowed: paid, cancelled)',
      details: { from: 'initiated', to: 'shipped', allowed: ['paid', 'cancelled'] },
    },
  },
  INSUFFICIENT_QUANTITY: {
    status: 409,
    when: 'fewer units of the inventory item are available than asked for (the others are reserved or sold); `details` has `requested` and `available`',
    example: {
      code: 'INSUFFICIENT_QUANTITY',
      message: 'Inventory item inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3 has 0 units available, 1 requested',
      details: { inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3', requested: 1, available: 0 },
    },
  },
  RESERVE_TOO_LOW: {
    status: 409,
    when: 'a reserve on a live lot under the lowest acceptable amount (the starting price; in an auction, the best plus the increment); `details` has the current `best` and the `minimumAmount`',
    example: {
      code: 'RESERVE_TOO_LOW',
      message: 'A reserve on lot lot_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3 must be at least 320.00 USD',
      details: { best: { reserveId: 'rsv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4', amount: 310 }, minimumAmount: 320, currency: 'USD' },
    },
  },
  REQUEST_TIMEOUT: {
    status: 408,
    when: 'the request (headers or body) did not arrive in time; the connection is closed',
    example: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' },
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    when: 'body over 1 MB (with `Expect: 100-continue` and such a `Content-Length`, answered before the body is sent); the connection is closed',
    example: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' },
  },
  URI_TOO_LONG: {
    status: 414,
    when: 'a path parameter is longer than the server accepts',
    example: { code: 'URI_TOO_LONG', message: 'A path parameter is too long' },
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    when: 'a body that is not `application/json` (or `text/csv` on the intake items route)',
    example: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported Content-Type: send application/json (or text/csv where a route accepts it)' },
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    when: 'a request with the same `Idempotency-Key` is still being processed; retry shortly',
    example: {
      code: 'IDEMPOTENCY_KEY_IN_USE',
      message: 'A request with this Idempotency-Key is still being processed; retry shortly',
    },
  },
  IDEMPOTENCY_REPLAY_UNAVAILABLE: {
    status: 409,
    when: 'a retry of a request whose answer held a secret, when that stored answer can no longer be opened (the server\'s `SECRETS_KEY` changed); the request already took effect',
    example: {
      code: 'IDEMPOTENCY_REPLAY_UNAVAILABLE',
      message:
        'The original answer to this Idempotency-Key can no longer be replayed: it was sealed with a key this server no longer has. The request already took effect; it will not run again',
    },
  },
  LIMIT_EXCEEDED: {
    status: 409,
    when: 'a per-workspace limit is reached (e.g. 50 webhooks); `details.limit` names it and `details.max` gives its value',
    example: {
      code: 'LIMIT_EXCEEDED',
      message: 'A workspace has at most 50 webhooks; delete one first',
      details: { limit: 'webhooks_per_workspace', max: 50 },
    },
  },
  EXPECTATION_FAILED: {
    status: 417,
    when: 'an `Expect` header other than `100-continue`; the connection is closed',
    example: { code: 'EXPECTATION_FAILED', message: 'The only Expect this server supports is 100-continue' },
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    when: 'an `Idempotency-Key` was already used with a different request (method, path or body)',
    example: {
      code: 'IDEMPOTENCY_KEY_REUSED',
      message:
        'This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request',
    },
  },
  RATE_LIMITED: {
    status: 429,
    when: 'too many requests; `details.retry_after` is the number of seconds to wait',
    example: {
      code: 'RATE_LIMITED',
      message: 'Too many requests: this workspace is over its rate limit of 20 requests per second. Retry after 1 second.',
      details: { retry_after: 1 },
    },
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    when: 'the request headers are larger than the server accepts (16 KB); the connection is closed',
    example: { code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large', details: { parserError: 'HPE_HEADER_OVERFLOW' } },
  },
  INTERNAL: {
    status: 500,
    when: 'a bug on our side (logged with the request id)',
    example: { code: 'INTERNAL', message: 'An internal error occurred' },
  },
  PRECONDITION_FAILED: {
    status: 412,
    when: 'a write with `If-Match`, when the resource is no longer at that version (someone changed it since): nothing was changed; `details.currentETag` names its version now',
    example: {
      code: 'PRECONDITION_FAILED',
      message: 'Trade trd_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3 is at version W/"2", not W/"1" (If-Match): it changed since you read it',
      details: { expectedETag: 'W/"1"', currentETag: 'W/"2"' },
    },
  },
  STORAGE_FULL: {
    status: 503,
    when: "a write, when the server's storage is full: nothing of it was kept; retry after `Retry-After` seconds (`details.retry_after`)",
    example: {
      code: 'STORAGE_FULL',
      message: "The server's storage is full: nothing of this write was kept. Retry after 30 seconds.",
      details: { retry_after: 30 },
    },
  },
  STORAGE_READ_ONLY: {
    status: 503,
    when: "a write, when the server's storage has turned read-only: nothing of it was kept; retry after `Retry-After` seconds",
    example: {
      code: 'STORAGE_READ_ONLY',
      message: "The server's storage is read-only: nothing of this write was kept. Retry after 30 seconds.",
      details: { retry_after: 30 },
    },
  },
  STORAGE_CORRUPT: {
    status: 503,
    when: "a write, when a database file of the server was found damaged: nothing of it was kept, and writes stay refused until an operator restores the file (readiness says which, `details.files`)",
    example: {
      code: 'STORAGE_CORRUPT',
      message: "The server's storage is damaged: nothing of this write was kept. Writes are refused until an operator restores it.",
    },
  },
  NOT_READY: {
    status: 503,
    when: 'a store the service needs does not answer, is full or read-only, or a database file is damaged: `details.checks` says which, `details.files` names the file (readiness only)',
    example: {
      code: 'NOT_READY',
      message: 'Not ready: readStore unavailable',
      details: { checks: { eventStore: 'ok', readStore: 'unavailable' } },
    },
  },
};

/** The one error shape, as a schema: examples are checked with it and it becomes `Error`. */
export const errorBodySchema = z
  .strictObject({
    code: z.string().meta({ description: 'Stable, machine-readable error code (see the table in the description).' }),
    message: z.string().meta({ description: 'What went wrong, for humans; may change between versions.' }),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Structured context, e.g. `issues` for VALIDATION_FAILED or `requiredScope`.' }),
  })
  .meta({
    id: 'Error',
    description: 'Every error answer has this shape, and never a stack trace.',
    examples: Object.values(ERROR_CATALOG).map((spec) => spec.example),
  });

export function errorCodeSpec(code: string): ErrorCodeSpec {
  const spec = ERROR_CATALOG[code];
  if (!spec) throw new Error(`Error code ${code} is not in ERROR_CATALOG (libs/platform/src/openapi/error-catalog.ts)`);
  return spec;
}

/** The README's error table, generated so the document and the codes cannot drift apart. */
export function errorTableMarkdown(): string {
  const rows = Object.entries(ERROR_CATALOG)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, spec]) => `| ${spec.status} | \`${code}\` | ${spec.when} |`);
  return ['| status | code | when |', '|---|---|---|', ...rows].join('\n');
}
