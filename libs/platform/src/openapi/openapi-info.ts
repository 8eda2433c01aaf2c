// The document's `info.description`: the API's conventions (README § API conventions), with the
// scope list and the error table generated from the code so they cannot drift.
import { SCOPES } from '../http/scopes';
import { errorTableMarkdown } from './error-catalog';

export const API_TITLE = 'Collectibles Commerce API';
export const API_VERSION = '1.0.0';

export function apiDescription(): string {
  return `A workspace-scoped commerce API for collectibles (trading cards and the like).

## Conventions

- **Base path** \`/api/v1\`. Bodies are JSON (\`Content-Type: application/json\`), fields camelCase.
- **Authentication**: \`Authorization: Bearer <API key>\` on every operation except the public ones
  (marked with no security requirement). Missing or invalid key → \`401 UNAUTHORIZED\`.
- **Scopes**: ${SCOPES.map((s) => `\`${s}\``).join(', ')}. \`admin\` grants everything and a blank
  selection means \`admin\`; \`write:x\` also grants \`read:x\`. Each operation names its scope in
  \`x-required-scope\` and in its description. A valid key lacking the scope →
  \`403 INSUFFICIENT_SCOPE\`, with \`details.requiredScope\` holding the scope.
- **Workspaces are isolated**: another workspace's resource answers \`404\`, exactly like a missing
  one, so ids do not leak.
- **Lists** take \`limit\` (1–100, default 20) and an opaque \`cursor\`, and answer
  \`{ "data": [...], "nextCursor": "…" | null }\`; pass \`nextCursor\` back as \`cursor\` for the next
  page. Cursors compare values, not offsets, so paging stays correct while items are added.
- **Money**: decimal numbers with at most 2 places (\`450.5\`) and an ISO 4217 \`currency\`
  (default \`USD\`).
- **Ids** are prefixed and time-sortable: \`ws_\`, \`key_\`, \`br_\`, … (ULID).
- **Methods**: a path answers the methods documented for it, and \`HEAD\` wherever it answers
  \`GET\`. Another method → \`405 METHOD_NOT_ALLOWED\` with an \`Allow\` header listing the path's
  methods (also in \`details.allowed\`); a path that does not exist → \`404 NOT_FOUND\`.
- **Request ids**: every response carries \`X-Request-Id\` (yours when you send a sane one).
- **Read-your-writes**: a write answers after the read models have applied it, so your next GET
  sees it.
- **Rate limits** apply per workspace; over them → \`429 RATE_LIMITED\` with \`details.retry_after\`.

## Errors

Errors always have one shape, \`{ "code", "message", "details"? }\` (schema \`Error\`), and never a
stack trace. Each operation lists the codes it can answer with.

${errorTableMarkdown()}
`;
}
