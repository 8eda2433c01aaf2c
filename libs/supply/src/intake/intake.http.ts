// HTTP: intake sessions under /api/v1/ingestion/sessions — create, add items (JSON or CSV), read,
// list, page rows, push. Request and response schemas live in intake.schemas.ts.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import {
  ApiError,
  ApiOperation,
  Auth,
  type AuthContext,
  escapeHostile,
  findHostileText,
  Idempotent,
  IfMatch,
  type ListResponse,
  paginationQuery,
  RequireScope,
  setETag,
  toListResponse,
  ZodPipe,
} from '@app/platform';

import { CsvError, type CsvTable, parseCsv } from './intake.csv';
import { MAX_ROWS_PER_CALL } from './intake.decider';
import type { RawRow } from './intake.events';
import { addedItemsExample, pushExample, rowExample, sessionExample } from './intake.examples';
import { AddIngestionRowsCommand, CreateIngestionSessionCommand, PushIngestionSessionCommand } from './intake.handlers';
import { GetIngestionSessionQuery, ListIngestionRowsQuery, ListIngestionSessionsQuery } from './intake.queries';
import {
  addedItemsResponse,
  type AddedItemsResponse,
  addItemsBody,
  addItemsBodyExample,
  countsOf,
  createSessionBody,
  type IngestionRowResponse,
  ingestionRowListResponse,
  type IngestionSessionResponse,
  ingestionSessionListResponse,
  ingestionSessionResponse,
  pushResponse,
  type PushResponse,
  rowsQuery,
  sessionIdParams,
  toPushResponse,
  toRowResponse,
  toRowResultResponse,
  toSessionResponse,
} from './intake.schemas';

const TAGS = ['Intake'];

/**
 * The rows of an add call: a JSON array, or a CSV text (`Content-Type: text/csv`) with a header row.
 * CSV records then pass the same schema as JSON rows, so both carry the same limits. The route reads
 * its body here rather than with @Body(), which would validate CSV text as JSON before it is decoded.
 */
function rowsOf(body: unknown, contentType: string | undefined): RawRow[] {
  if (body === undefined) throw ApiError.validation('A request body is required: a JSON array of rows or CSV text', [{ path: '', message: 'body is required' }]);
  const rows = new ZodPipe(addItemsBody);
  if (typeof body !== 'string' || !/^text\/csv\b/i.test(contentType ?? '')) return rows.transform(body);
  let table: CsvTable;
  try {
    table = parseCsv(body);
  } catch (error) {
    if (error instanceof CsvError) throw ApiError.validation(error.message, [{ path: '', message: error.message }]);
    throw error;
  }
  refuseHostileHeader(table.header);
  const records = table.rows;
  if (records.length === 0) {
    const message = 'The CSV has a header row but no records';
    throw ApiError.validation(message, [{ path: '', message }]);
  }
  return rows.transform(records);
}

/**
 * The one rule for text holds for the header row too: its cells become the keys of every row (and
 * are stored with them). Checked on the header itself, so a column no record fills is caught as
 * well; `header.2` is the third cell.
 */
function refuseHostileHeader(header: readonly string[]): void {
  header.forEach((cell, i) => {
    const hostile = findHostileText(cell);
    if (!hostile) return;
    const message = `the column name (a key of every row) contains ${hostile.found}; remove it`;
    throw ApiError.validation(`Invalid CSV header cell ${i + 1} "${escapeHostile(cell)}": ${message}`, [{ path: `header.${i}`, message }]);
  });
}

@Controller('api/v1/ingestion/sessions')
export class IntakeController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'createIngestionSession',
    versioned: 'etag',
    summary: 'Start an intake session for batch supply',
    description:
      'Creates an open session to add inventory rows to (normalized as they arrive), review, then push to live ' +
      'inventory in one step. The body is optional: `defaultCurrency` (default `USD`) applies to rows that name no currency.',
    tags: TAGS,
    body: createSessionBody,
    bodyExample: { name: 'Spring card show buylist', source: 'csv-export', defaultCurrency: 'USD' },
    responses: { 201: { description: 'Created; readable at once', schema: ingestionSessionResponse, example: sessionExample } },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof createSessionBody>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IngestionSessionResponse> {
    const session = { name: body.name ?? null, source: body.source ?? null, defaultCurrency: body.defaultCurrency ?? 'USD' };
    const created = await this.commands.execute(new CreateIngestionSessionCommand(auth.workspaceId, auth.keyId, session, String(request.id)));
    setETag(reply, created.revision);
    return toSessionResponse(created);
  }

  @Post(':id/items')
  @HttpCode(200)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'addIngestionItems',
    versioned: 'if-match',
    summary: 'Add items to an intake session (normalized in real time)',
    description:
      `Adds up to ${MAX_ROWS_PER_CALL} raw rows (1 MB body) and answers each row normalized, with its issues. ` +
      'The body is a JSON array of row objects, or CSV text with a header row sent as `Content-Type: text/csv` ' +
      '(RFC 4180: quoted fields, `""` escapes, CRLF or LF, optional BOM; `;` or tab delimiters are detected). ' +
      'Column names are case-insensitive with aliases: `cardName` (`card_name`, `card`, `name`), `setName` (`set`, `set_name`, ' +
      '`expansion`), `condition` (`cond`, `grade`), `price` (`amount`), `currency`, `quantity` (`qty`, `count`), `sku`, ' +
      '`cardNumber` (`number`, `card_number`, `no`), `notes`. Rows are numbered from 1 across the whole session. ' +
      'A row is `error` (never pushed) without a card name, set, condition or a parsable price, with a quantity that is ' +
      'not a whole number from 1 to 100,000, or with a currency that contradicts the price (`€12` with `USD`); `warning` ' +
      'for unknown columns and for names, sets or conditions the catalogue does not recognise (kept as given, and pushed). ' +
      'Refused with `INVALID_TRANSITION` once the session was pushed.',
    tags: TAGS,
    params: sessionIdParams,
    body: addItemsBody,
    bodyExample: addItemsBodyExample,
    errors: ['INVALID_TRANSITION'],
    responses: { 200: { description: 'The rows just added, normalized, and the session counts', schema: addedItemsResponse, example: addedItemsExample } },
  })
  async addItems(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof sessionIdParams>,
    // The body (JSON or CSV) is read from the request by rowsOf.
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AddedItemsResponse> {
    const rows = rowsOf(request.body, request.headers['content-type']);
    // The rows as decided; the write left the session's counts in its read model, and the rows
    // route waits for its own (asynchronous) model up to them.
    const added = await this.commands.execute(new AddIngestionRowsCommand(auth.workspaceId, auth.keyId, params.id, rows, String(request.id), ifMatch));
    setETag(reply, added.revision);
    return {
      sessionId: params.id,
      added: added.rows.length,
      rows: added.rows.map(toRowResultResponse),
      counts: countsOf(added.session.batches.flatMap((b) => b.rows)),
    };
  }

  @Post(':id/push')
  @HttpCode(200)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'pushIngestionSession',
    versioned: 'if-match',
    summary: 'Push an intake session to live inventory (triggers matching)',
    description:
      'Creates one inventory item per row without errors (rows with errors are skipped and listed), then answers how ' +
      'many open buyer requests the new items matched. Pushing again is a no-op that answers the same result; the ' +
      'inventory list shows the items at once. Row-to-item ids: `GET …/rows`.',
    tags: TAGS,
    params: sessionIdParams,
    responses: { 200: { description: 'The push result', schema: pushResponse, example: pushExample } },
  })
  async push(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof sessionIdParams>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PushResponse> {
    // The push as decided, or for a repeat as the log holds it; the items and the session are
    // their writes' own read models, current at once.
    const pushed = await this.commands.execute(new PushIngestionSessionCommand(auth.workspaceId, auth.keyId, params.id, String(request.id), ifMatch));
    setETag(reply, pushed.revision);
    return toPushResponse(pushed.result);
  }

  @Get()
  @RequireScope('read:inventory')
  @ApiOperation({
    operationId: 'listIngestionSessions',
    summary: 'List intake sessions, newest first',
    tags: TAGS,
    query: paginationQuery,
    responses: { 200: { description: 'A page of sessions', schema: ingestionSessionListResponse, example: { data: [sessionExample], nextCursor: null } } },
  })
  async list(
    @Auth() auth: AuthContext,
    @QueryParams() query: z.output<typeof paginationQuery>,
  ): Promise<ListResponse<IngestionSessionResponse>> {
    const page = await this.queries.execute(new ListIngestionSessionsQuery(auth.workspaceId, query.limit, query.cursor));
    return toListResponse(page, toSessionResponse);
  }

  @Get(':id')
  @RequireScope('read:inventory')
  @ApiOperation({
    operationId: 'getIngestionSession',
    versioned: 'etag',
    summary: 'Read an intake session and its row counts',
    description: 'Counts by row status and the push result; the rows themselves page through `GET …/rows`.',
    tags: TAGS,
    params: sessionIdParams,
    responses: { 200: { description: 'The session', schema: ingestionSessionResponse, example: sessionExample } },
  })
  async get(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof sessionIdParams>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IngestionSessionResponse> {
    const doc = await this.queries.execute(new GetIngestionSessionQuery(auth.workspaceId, params.id));
    setETag(reply, doc.revision);
    return toSessionResponse(doc);
  }

  @Get(':id/rows')
  @RequireScope('read:inventory')
  @ApiOperation({
    operationId: 'listIngestionRows',
    summary: "Page through an intake session's rows in row order",
    description: 'Each row: the raw input, the normalized fields, what changed, issues and, once pushed, its inventory item. `status` filters (e.g. only `error` rows).',
    tags: TAGS,
    params: sessionIdParams,
    query: rowsQuery,
    responses: { 200: { description: 'A page of rows', schema: ingestionRowListResponse, example: { data: [rowExample], nextCursor: null } } },
  })
  async rows(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof sessionIdParams>,
    @QueryParams() query: z.output<typeof rowsQuery>,
  ): Promise<ListResponse<IngestionRowResponse>> {
    const page = await this.queries.execute(new ListIngestionRowsQuery(auth.workspaceId, params.id, query.limit, query.cursor, query.status));
    if (!page) throw ApiError.notFound('ingestion session', params.id);
    return toListResponse(page, toRowResponse);
  }
}
