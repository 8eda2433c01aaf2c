// HTTP: /api/v1/buyers — a widget buyer's personal data, and its erasure (admin).
import { Controller, Delete, Param, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiOperation, Auth, type AuthContext, RequireScope } from '@app/platform';

import { CountBuyerRequestsOfBuyerQuery } from '../buyer-request/buyer-request.queries';
import { EraseBuyerPersonalDataCommand } from './buyer.handlers';
import { buyerIdParams, erasedPersonalDataExample, erasedPersonalDataResponse } from './buyer.schemas';

@Controller('api/v1/buyers')
export class BuyersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Delete(':id/personal-data')
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'eraseBuyerPersonalData',
    summary: "Erase a buyer's personal data (crypto-shredding)",
    description:
      "Destroys the buyer's data key: every contact (email and note) the buyer left through the widget no longer opens — in the read models, " +
      'in the event log (which is not rewritten) and in any backup of them. Their buyer requests stay, with `contact: null` and `contactErased: true`. ' +
      'The erasure is recorded in the log (when and by which key; never what). Erasing again answers the first erasure. ' +
      'A want list the same address sends later is a new consent: it gets a new key, and only its own contact is readable.',
    tags: ['Buyers'],
    params: buyerIdParams,
    responses: { 200: { description: 'Erased', schema: erasedPersonalDataResponse, example: erasedPersonalDataExample } },
  })
  async erase(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof buyerIdParams>,
    @Req() request: FastifyRequest,
  ): Promise<z.output<typeof erasedPersonalDataResponse>> {
    const erased = await this.commands.execute(new EraseBuyerPersonalDataCommand(auth.workspaceId, auth.keyId, params.id, String(request.id)));
    // The erasure changes no read model (the contacts stop opening where they lie), and the
    // requests counted are in their own read model, which their writes keep current.
    const buyerRequestCount = await this.queries.execute(new CountBuyerRequestsOfBuyerQuery(auth.workspaceId, params.id));
    return { buyerId: erased.buyerId, personalData: 'erased', erasedAt: erased.erasedAt, buyerRequestCount };
  }
}
