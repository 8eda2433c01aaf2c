// What a rule's action would do for one triggering event: reads what it acts on (the offer, the
// item's list price, the buyer request) and answers either a skip (an action threshold not met) or
// the effect, described, with the command that makes it. The process manager runs the command; the
// `/test` route only shows the plan. A plan that cannot be made throws the DomainError the run records.
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';

import { ArchiveBuyerRequestCommand, BUYER_REQUEST_READER, type BuyerRequestReader } from '@app/demand';
import { CLOCK, type Clock, fromMinor, toMinor } from '@app/platform';
import { DomainError } from '@app/platform/domain';
import { INVENTORY_READER, type InventoryItemView, type InventoryReader, UpdateInventoryItemCommand } from '@app/supply';
import { AnswerOfferCommand, GetOfferQuery, MakeOfferCommand, PlaceHoldCommand } from '@app/trading';

import type { AutomationAction } from './automation.actions';

export type Plan = { kind: 'skip'; reason: string } | { kind: 'act'; effect: string; execute: (actor: string) => Promise<unknown> };

type Data = Readonly<Record<string, unknown>>;

const HOUR = 3600 * 1000;
const money = (minor: number, currency: string) => `${fromMinor(minor)} ${currency}`;

@Injectable()
export class ActionPlanner {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(INVENTORY_READER) private readonly items: InventoryReader,
    @Inject(BUYER_REQUEST_READER) private readonly requests: BuyerRequestReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async plan(workspaceId: string, action: AutomationAction, data: Data): Promise<Plan> {
    switch (action.type) {
      case 'accept_offer':
      case 'reject_offer':
      case 'counter_offer':
        return this.answer(workspaceId, action, data);
      case 'create_offer': {
        const item = await this.item(workspaceId, data);
        const requestId = target(data, 'buyer_request_id');
        const [request] = (await this.requests.getMany([requestId])).filter((r) => r.workspaceId === workspaceId);
        if (!request) throw new DomainError('NOT_FOUND', `No buyer request with id ${requestId}`);
        if (request.currency !== item.currency) {
          throw DomainError.validation(`The item is priced in ${item.currency}, the buyer request in ${request.currency}`, [{ path: 'currency', message: 'must match' }]);
        }
        const listed = percentOf(item.priceMinor, action.params?.percentOfList ?? 100);
        // A request without a price limit takes the listed price.
        const amountMinor = request.maxPriceMinor === null ? listed : Math.min(listed, request.maxPriceMinor);
        const matchId = typeof data.match_id === 'string' ? data.match_id : null;
        const expiresAt = new Date(this.clock.now().getTime() + (action.params?.expiresInHours ?? 48) * HOUR).toISOString();
        const capped = amountMinor < listed ? ` (capped at the buyer's maxPrice)` : '';
        return {
          kind: 'act',
          effect: `make a seller offer of ${money(amountMinor, item.currency)}${capped} on ${item.id} for ${request.id}`,
          execute: (actor) =>
            this.commands.execute(
              new MakeOfferCommand(workspaceId, actor, {
                inventoryItemId: item.id,
                buyerRequestId: request.id,
                matchId,
                amountMinor,
                quantity: 1,
                from: 'seller',
                message: action.params?.message ?? null,
                expiresAt,
              }),
            ),
        };
      }
      case 'place_hold': {
        const item = await this.item(workspaceId, data);
        const quantity = action.params?.quantity ?? 1;
        const depositMinor = percentOf(item.priceMinor * quantity, action.params?.depositPercentOfList ?? 0);
        const buyerRequestId = typeof data.buyer_request_id === 'string' ? data.buyer_request_id : null;
        const expiresAt = new Date(this.clock.now().getTime() + (action.params?.expiresInHours ?? 24) * HOUR).toISOString();
        return {
          kind: 'act',
          effect: `hold ${quantity} unit(s) of ${item.id} with a deposit of ${money(depositMinor, item.currency)} until ${expiresAt}`,
          execute: (actor) => this.commands.execute(new PlaceHoldCommand(workspaceId, actor, { inventoryItemId: item.id, buyerRequestId, quantity, depositMinor, expiresAt })),
        };
      }
      case 'archive_buyer_request': {
        const id = target(data, 'buyer_request_id');
        return {
          kind: 'act',
          effect: `archive buyer request ${id}`,
          execute: (actor) => this.commands.execute(new ArchiveBuyerRequestCommand(workspaceId, actor, id, action.params?.reason ?? null)),
        };
      }
      case 'reprice_item': {
        const item = await this.item(workspaceId, data);
        const priceMinor = action.params?.price !== undefined ? toMinor(action.params?.price) : percentOf(item.priceMinor, action.params?.percentOfPrice ?? 100);
        if (priceMinor <= 0) throw DomainError.validation('The new price would be 0', [{ path: 'action.params', message: 'gives a price of 0' }]);
        if (priceMinor === item.priceMinor) return { kind: 'skip', reason: `${item.id} is already priced at ${money(priceMinor, item.currency)}` };
        return {
          kind: 'act',
          effect: `reprice ${item.id} from ${money(item.priceMinor, item.currency)} to ${money(priceMinor, item.currency)}`,
          execute: (actor) => this.commands.execute(new UpdateInventoryItemCommand(workspaceId, actor, item.id, { priceMinor })),
        };
      }
      default: {
        const never: never = action;
        throw new Error(`Unknown action ${JSON.stringify(never)}`);
      }
    }
  }

  /** Accept, reject or counter the triggering offer, judged against its item's list price. */
  private async answer(workspaceId: string, action: Extract<AutomationAction, { type: 'accept_offer' | 'reject_offer' | 'counter_offer' }>, data: Data): Promise<Plan> {
    const offerId = target(data, 'offer_id');
    const offer = await this.queries.execute(new GetOfferQuery(workspaceId, offerId));
    const [item] = (await this.items.getMany([offer.inventoryItemId])).filter((i) => i.workspaceId === workspaceId);
    const amountMinor = toMinor(offer.amount);
    const party = action.params?.party ?? 'seller';
    const listMinor = item ? item.priceMinor * offer.quantity : null;
    const share = (minor: number) => (listMinor ? `${Math.round((minor / listMinor) * 1000) / 10} % of the list price ${money(listMinor, offer.currency)}` : 'no list price');
    const needList = (): number => {
      if (listMinor === null) throw new DomainError('NOT_FOUND', `No inventory item with id ${offer.inventoryItemId}: no list price to compare with`);
      return listMinor;
    };
    const offered = `offer ${offerId} of ${money(amountMinor, offer.currency)} (${share(amountMinor)})`;
    switch (action.type) {
      case 'accept_offer': {
        const min = action.params?.minPercentOfList;
        if (min !== undefined && amountMinor * 100 < min * needList()) return { kind: 'skip', reason: `${offered} is below ${min} %` };
        return {
          kind: 'act',
          effect: `accept ${offered} as the ${party}`,
          execute: (actor) => this.commands.execute(new AnswerOfferCommand(workspaceId, actor, offerId, { type: 'accept', party })),
        };
      }
      case 'reject_offer': {
        const below = action.params?.belowPercentOfList;
        if (below !== undefined && amountMinor * 100 >= below * needList()) return { kind: 'skip', reason: `${offered} is not below ${below} %` };
        const reason = action.params?.reason ?? null;
        return {
          kind: 'act',
          effect: `reject ${offered} as the ${party}`,
          execute: (actor) => this.commands.execute(new AnswerOfferCommand(workspaceId, actor, offerId, { type: 'reject', party, reason })),
        };
      }
      case 'counter_offer': {
        const below = action.params?.belowPercentOfList;
        if (below !== undefined && amountMinor * 100 >= below * needList()) return { kind: 'skip', reason: `${offered} is not below ${below} %` };
        const counterMinor = action.params?.amount !== undefined ? toMinor(action.params?.amount) : percentOf(needList(), action.params?.percentOfList ?? 100);
        const message = action.params?.message ?? null;
        return {
          kind: 'act',
          effect: `counter ${offered} with ${money(counterMinor, offer.currency)} as the ${party}`,
          execute: (actor) => this.commands.execute(new AnswerOfferCommand(workspaceId, actor, offerId, { type: 'counter', party, amountMinor: counterMinor, message })),
        };
      }
    }
  }

  private async item(workspaceId: string, data: Data): Promise<InventoryItemView> {
    const id = target(data, 'inventory_item_id');
    const [item] = (await this.items.getMany([id])).filter((i) => i.workspaceId === workspaceId);
    if (!item) throw new DomainError('NOT_FOUND', `No inventory item with id ${id}`);
    return item;
  }
}

function target(data: Data, field: string): string {
  const value = data[field];
  if (typeof value !== 'string') throw DomainError.validation(`The triggering event names no ${field}`, [{ path: field, message: 'is missing from the event' }]);
  return value;
}

function percentOf(minor: number, percent: number): number {
  return Math.round((minor * percent) / 100);
}
