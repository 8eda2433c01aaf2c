// HTTP: /api/v1/automations — rules that act on the service's own events (process managers on the
// log), their runs, and a dry run. Rules are a trading feature: reading them needs read:trades,
// setting, changing or deleting one needs write:trades AND the scope of its action
// (write:requests for archive_buyer_request, write:inventory for reprice_item): a rule can only do
// what the key that set it could, and it records that key's scopes, checked again when it fires.
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query as QueryParams, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiError, ApiOperation, Auth, type AuthContext, grants, Idempotent, IfMatch, type ListResponse, RequireScope, setETag, toListResponse } from '@app/platform';

import { ACTION_SCOPE, type AutomationAction } from '../actions/automation.actions';
import type { AutomationRule } from './automation.events';
import { ArchiveAutomationCommand, CreateAutomationCommand, UpdateAutomationCommand } from './automation.handlers';
import { ListAutomationRunsQuery } from '../run/automation-run.queries';
import { GetAutomationQuery, ListAutomationsQuery, TestAutomationQuery } from './automation.queries';
import type { AutomationDoc } from './automation.projection';
import {
  automationExample,
  automationIdParams,
  automationListResponse,
  automationResponse,
  type AutomationResponse,
  automationRunListResponse,
  type AutomationRunResponse,
  automationTestResponse,
  type AutomationTestResponse,
  createAutomationBody,
  createAutomationExample,
  listAutomationsQuery,
  listRunsQuery,
  runExample,
  testAutomationBody,
  toAutomationResponse,
  updateAutomationBody,
} from './automation.schemas';

const TAGS = ['Automations'];
const RULES =
  'A rule fires on each new public event of its `trigger.event` type in its workspace whose `data` meets every condition ' +
  '(operators `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `in`, `contains` over the snake_case fields), and does its `action`: ' +
  '`accept_offer`, `reject_offer`, `counter_offer` (on an `offer.*` trigger: that offer; thresholds as a percentage of the item\'s ' +
  'list price), `create_offer` (for a match: a percentage of the list price, capped at the buyer\'s maxPrice), `place_hold`, ' +
  '`archive_buyer_request`, `reprice_item`. Every firing is a run (`GET /automations/{id}/runs`): the triggering event, the ' +
  'outcome, the events it caused or the error. A rule fires at most once per event (restarts and read-model rebuilds ' +
  'never fire it again), never on its own action\'s events, and a chain of actions deeper than a bound (default 3) stops with ' +
  'a failed run (`AUTOMATION_CHAIN_TOO_DEEP`). Setting, changing or deleting a rule needs `write:trades` and its action\'s ' +
  'scope (`write:requests` for archive_buyer_request, `write:inventory` for reprice_item); the rule acts within the scopes of ' +
  'the key that set it. Runs are internal: never delivered by webhooks.';

/** 403 INSUFFICIENT_SCOPE, as the guard answers, when the key could not do what the action does. */
function assertMayAct(auth: AuthContext, action: AutomationAction): void {
  const required = ACTION_SCOPE[action.type];
  if (!grants(auth.scopes, required)) {
    throw new ApiError(403, 'INSUFFICIENT_SCOPE', `This API key lacks the required scope: ${required} (the scope of a ${action.type} action)`, { requiredScope: required });
  }
}

/** The rule as a write left it, with its version (the stream revision that write decided on). */
function answer(reply: FastifyReply, doc: AutomationDoc): AutomationResponse {
  setETag(reply, doc.revision);
  return toAutomationResponse(doc);
}

@Controller('api/v1/automations')
export class AutomationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'createAutomation',
    versioned: 'etag',
    summary: 'Create an automation rule',
    description: RULES,
    tags: TAGS,
    body: createAutomationBody,
    bodyExample: createAutomationExample,
    responses: { 201: { description: 'Created; readable at once, and firing on the events after it', schema: automationResponse, example: automationExample } },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof createAutomationBody>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AutomationResponse> {
    assertMayAct(auth, body.action);
    const rule: AutomationRule = { name: body.name, trigger: body.trigger, action: body.action, enabled: body.enabled ?? true, keyId: auth.keyId, scopes: [...auth.scopes] };
    return answer(reply, await this.commands.execute(new CreateAutomationCommand(auth.workspaceId, auth.keyId, rule, String(request.id))));
  }

  @Get()
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'listAutomations',
    summary: 'List automation rules, newest first',
    tags: TAGS,
    query: listAutomationsQuery,
    responses: { 200: { description: 'A page of rules (archived ones too)', schema: automationListResponse, example: { data: [automationExample], nextCursor: null } } },
  })
  async list(@Auth() auth: AuthContext, @QueryParams() query: z.output<typeof listAutomationsQuery>): Promise<ListResponse<AutomationResponse>> {
    return toListResponse(await this.queries.execute(new ListAutomationsQuery(auth.workspaceId, query.limit, query.cursor)), (r) => r);
  }

  @Get(':id')
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'getAutomation',
    versioned: 'etag',
    summary: 'Get an automation rule',
    description: RULES,
    tags: TAGS,
    params: automationIdParams,
    responses: { 200: { description: 'The rule', schema: automationResponse, example: automationExample } },
  })
  async get(@Auth() auth: AuthContext, @Param() params: z.output<typeof automationIdParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<AutomationResponse> {
    const { automation, revision } = await this.queries.execute(new GetAutomationQuery(auth.workspaceId, params.id));
    setETag(reply, revision);
    return automation;
  }

  @Patch(':id')
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'updateAutomation',
    versioned: 'if-match',
    summary: 'Change an automation rule',
    description: `Changes its name, trigger, action or \`enabled\` (validated as on create); the rule then acts for this key, within its scopes. An archived rule is \`409 INVALID_TRANSITION\`. ${RULES}`,
    tags: TAGS,
    params: automationIdParams,
    body: updateAutomationBody,
    bodyExample: { enabled: false },
    errors: ['INVALID_TRANSITION'],
    responses: { 200: { description: 'The changed rule', schema: automationResponse, example: { ...automationExample, enabled: false } } },
  })
  async update(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof automationIdParams>,
    @Body() body: z.output<typeof updateAutomationBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AutomationResponse> {
    const patch = (current: AutomationRule): AutomationRule => {
      const next: AutomationRule = { ...current, ...body, keyId: auth.keyId, scopes: [...auth.scopes] };
      assertMayAct(auth, next.action);
      return next;
    };
    return answer(reply, await this.commands.execute(new UpdateAutomationCommand(auth.workspaceId, auth.keyId, params.id, patch, String(request.id), ifMatch)));
  }

  @Delete(':id')
  @RequireScope('write:trades')
  @ApiOperation({
    operationId: 'deleteAutomation',
    versioned: 'if-match',
    summary: 'Delete (archive) an automation rule',
    description: `The rule is archived: it never fires again, and it and its runs stay readable. Deleting it again answers it as it is. ${RULES}`,
    tags: TAGS,
    params: automationIdParams,
    responses: { 200: { description: 'The archived rule', schema: automationResponse, example: { ...automationExample, status: 'archived', archivedAt: automationExample.updatedAt } } },
  })
  async remove(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof automationIdParams>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AutomationResponse> {
    const mayArchive = (current: AutomationRule) => assertMayAct(auth, current.action);
    return answer(reply, await this.commands.execute(new ArchiveAutomationCommand(auth.workspaceId, auth.keyId, params.id, mayArchive, String(request.id), ifMatch)));
  }

  @Get(':id/runs')
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'listAutomationRuns',
    summary: 'List a rule\'s runs, newest first',
    description: 'Each firing of the rule: the triggering event, the outcome (`succeeded`, `skipped`, `failed`), the events its action caused or the error, and `lagMs` from the event to the effect.',
    tags: TAGS,
    params: automationIdParams,
    query: listRunsQuery,
    responses: { 200: { description: 'A page of runs', schema: automationRunListResponse, example: { data: [runExample], nextCursor: null } } },
  })
  async runs(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof automationIdParams>,
    @QueryParams() query: z.output<typeof listRunsQuery>,
  ): Promise<ListResponse<AutomationRunResponse>> {
    return toListResponse(await this.queries.execute(new ListAutomationRunsQuery(auth.workspaceId, params.id, query.limit, query.cursor)), (r) => r);
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequireScope('read:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'testAutomation',
    summary: 'Show what a rule would do on an event, without doing it',
    description: 'A dry run of the rule as it is now on a stored event of this workspace: whether it fires, and the effect, the skip reason or the error its run would record. Nothing is done or recorded.',
    tags: TAGS,
    params: automationIdParams,
    body: testAutomationBody,
    bodyExample: { eventId: 'evt_0196b2a4c1d27f0e8a1b2c3d4e5f6a7b' },
    responses: {
      200: {
        description: 'What the rule would do',
        schema: automationTestResponse,
        example: {
          eventId: 'evt_0196b2a4c1d27f0e8a1b2c3d4e5f6a7b',
          eventType: 'offer.created',
          wouldFire: true,
          outcome: 'succeeded',
          effect: runExample.effect,
          reason: null,
          error: null,
          alreadyRan: false,
        },
      },
    },
  })
  test(@Auth() auth: AuthContext, @Param() params: z.output<typeof automationIdParams>, @Body() body: z.output<typeof testAutomationBody>): Promise<AutomationTestResponse> {
    return this.queries.execute(new TestAutomationQuery(auth.workspaceId, params.id, body.eventId));
  }
}
