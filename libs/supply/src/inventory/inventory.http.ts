// HTTP: /api/v1/inventory — create, list, read, update and delete inventory items.
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query as QueryParams, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import {
  ApiOperation,
  Auth,
  type AuthContext,
  Idempotent,
  IfMatch,
  type ListResponse,
  RequireScope,
  setETag,
  toListResponse,
  toMinor,
} from '@app/platform';

import { CreateInventoryItemCommand, DeleteInventoryItemCommand, UpdateInventoryItemCommand } from './inventory.handlers';
import type { InventoryItemPatch } from './inventory.normalization';
import { GetInventoryItemQuery, ListInventoryItemsQuery } from './inventory.queries';
import {
  createdExample,
  type CreatedInventoryItemResponse,
  createdInventoryItemResponse,
  createExample,
  createInventoryItemBody,
  deletedInventoryItemResponse,
  inventoryItemIdParams,
  inventoryItemListResponse,
  inventoryItemResponse,
  type InventoryItemResponse,
  itemExample,
  listInventoryQuery,
  toInventoryItemResponse,
  updatedInventoryItemResponse,
  type UpdatedInventoryItemResponse,
  updateInventoryItemBody,
} from './inventory.schemas';

const TAGS = ['Inventory'];

@Controller('api/v1/inventory')
export class InventoryController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'createInventoryItem',
    versioned: 'etag',
    summary: 'Add an inventory item',
    description:
      'Card name, set and condition are normalized (`"nm"` → `Near Mint`, `"base set"` → `Base`); the answer shows what ' +
      'was changed, how sure normalization is and what to check. Unrecognised values are kept as given and flagged.',
    tags: TAGS,
    body: createInventoryItemBody,
    bodyExample: createExample,
    responses: {
      201: { description: 'Created; readable at once (read-your-writes)', schema: createdInventoryItemResponse, example: createdExample },
    },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof createInventoryItemBody>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatedInventoryItemResponse> {
    const created = await this.commands.execute(
      new CreateInventoryItemCommand(
        auth.workspaceId,
        auth.keyId,
        {
          cardName: body.cardName,
          setName: body.setName,
          condition: body.condition,
          priceMinor: toMinor(body.price),
          currency: body.currency ?? 'USD',
          quantity: body.quantity ?? 1,
          status: body.status ?? 'available',
          sku: body.sku ?? null,
          cardNumber: body.cardNumber ?? null,
          notes: body.notes ?? null,
        },
        String(request.id),
      ),
    );
    setETag(reply, created.doc.revision);
    return { ...toInventoryItemResponse(created.doc), normalization: created.normalization };
  }

  @Get()
  @RequireScope('read:inventory')
  @ApiOperation({
    operationId: 'listInventoryItems',
    summary: 'List inventory items, newest first',
    description: '`cardName` and `setName` are compared after normalization, so `charizard` finds `Charizard`.',
    tags: TAGS,
    query: listInventoryQuery,
    responses: {
      200: { description: 'A page of inventory items', schema: inventoryItemListResponse, example: { data: [itemExample], nextCursor: null } },
    },
  })
  async list(
    @Auth() auth: AuthContext,
    @QueryParams() query: z.output<typeof listInventoryQuery>,
  ): Promise<ListResponse<InventoryItemResponse>> {
    const { limit, cursor, minPrice, maxPrice, ...filters } = query;
    const page = await this.queries.execute(
      new ListInventoryItemsQuery(
        auth.workspaceId,
        {
          ...filters,
          minPriceMinor: minPrice === undefined ? undefined : toMinor(minPrice),
          maxPriceMinor: maxPrice === undefined ? undefined : toMinor(maxPrice),
        },
        limit,
        cursor,
      ),
    );
    return toListResponse(page, toInventoryItemResponse);
  }

  @Get(':id')
  @RequireScope('read:inventory')
  @ApiOperation({
    operationId: 'getInventoryItem',
    versioned: 'etag',
    summary: 'Read one inventory item',
    tags: TAGS,
    params: inventoryItemIdParams,
    responses: { 200: { description: 'The inventory item', schema: inventoryItemResponse, example: itemExample } },
  })
  async get(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof inventoryItemIdParams>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InventoryItemResponse> {
    const doc = await this.queries.execute(new GetInventoryItemQuery(auth.workspaceId, params.id));
    setETag(reply, doc.revision);
    return toInventoryItemResponse(doc);
  }

  @Patch(':id')
  @RequireScope('write:inventory')
  @ApiOperation({
    operationId: 'updateInventoryItem',
    versioned: 'if-match',
    summary: 'Change an inventory item',
    description:
      'Changes any subset of the fields, its sale state included; changed names and condition are normalized again. ' +
      'Sending what the item already holds changes nothing (no `inventory.updated` event). A move its state does not ' +
      'allow (e.g. out of `sold`) is 409 INVALID_TRANSITION. While trades or holds hold units of it, its status follows ' +
      'them: withdrawing it is 409 CONFLICT (details name the reservations), another status move is 409 ' +
      'INVALID_TRANSITION, and so is a `quantity` below reserved + sold.',
    tags: TAGS,
    params: inventoryItemIdParams,
    body: updateInventoryItemBody,
    bodyExample: { price: 425, status: 'reserved' },
    errors: ['INVALID_TRANSITION', 'CONFLICT'],
    responses: {
      200: {
        description: 'The item after the change',
        schema: updatedInventoryItemResponse,
        example: { ...itemExample, price: 425, status: 'reserved', availableQuantity: 0, updatedAt: '2025-11-23T09:00:00.000Z', normalization: {} },
      },
    },
  })
  async update(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof inventoryItemIdParams>,
    @Body() body: z.output<typeof updateInventoryItemBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UpdatedInventoryItemResponse> {
    const { price, ...rest } = body;
    const patch: InventoryItemPatch = { ...rest, priceMinor: price === undefined ? undefined : toMinor(price) };
    const result = await this.commands.execute(
      new UpdateInventoryItemCommand(auth.workspaceId, auth.keyId, params.id, patch, String(request.id), ifMatch),
    );
    setETag(reply, result.doc.revision);
    return { ...toInventoryItemResponse(result.doc), normalization: result.normalization };
  }

  @Delete(':id')
  @RequireScope('write:inventory')
  @ApiOperation({
    operationId: 'deleteInventoryItem',
    versioned: 'if-match',
    summary: 'Delete an inventory item',
    description:
      'Removes the item from inventory and from matching. Deleting it again is 404 NOT_FOUND. An item whose units trades or ' +
      'holds hold is 409 CONFLICT (details name the reservations): cancel those first.',
    tags: TAGS,
    params: inventoryItemIdParams,
    errors: ['CONFLICT'],
    responses: {
      200: { description: 'Deleted', schema: deletedInventoryItemResponse, example: { id: itemExample.id, deleted: true } },
    },
  })
  async remove(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof inventoryItemIdParams>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<z.output<typeof deletedInventoryItemResponse>> {
    // The write removed the item's document with it: its GET and the list no longer show it. The
    // ETag is the version the deletion left (its stream stays in the log).
    const { id, revision } = await this.commands.execute(new DeleteInventoryItemCommand(auth.workspaceId, auth.keyId, params.id, String(request.id), ifMatch));
    setETag(reply, revision);
    return { id, deleted: true };
  }
}
