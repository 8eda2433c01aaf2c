// Keeps every reserved unit held by a live trade or hold, whatever a crash interrupted. On SQLite a
// decision spanning the item and its holder is one transaction, so this never finds anything; on
// EventStoreDB, which appends stream by stream, a crash between the two can leave
//  - a reservation whose holder never came to exist (the item is appended first), or
//  - a trade or hold that ended (cancelled, completed, released, expired) while its units stay held.
// Both are durable timers derived from the log: a reservation schedules a check that its holder's
// first event cancels; an ending holder schedules a settlement that the item's release (or sale)
// cancels. A timer that fires after the grace period finds the split and finishes it: releases
// orphaned units (or hands a hold's units back to it when its conversion never made the trade),
// sells a completed trade's, releases an ended trade's or hold's.
import { Inject, Injectable } from '@nestjs/common';

import { type DueTimer, EVENT_STORE, type EventStore, type RecordedEvent, streamEntityId, type TimerHandler, type TimerSource } from '@app/platform';
import { handleCommands, type Transaction } from '@app/platform/domain';

import { holdAggregate } from './hold/hold.aggregate';
import { holdStream } from './hold/hold.events';
import { tradeAggregate } from './trade/trade.aggregate';
import { tradeStream } from './trade/trade.events';
import { itemFor } from './trade/trade.open';

/** How long a split may last before it is taken for a crash (appends of one decision take ms). Timed from the events' own times. */
export const RESERVATION_GRACE_MS = 30_000;
const KIND = 'reservation.reconcile';

interface Named {
  inventoryItemId?: string;
  reservationId?: string;
  holderId?: string;
  tradeId?: string;
  holdId?: string;
  to?: string;
  at?: string;
  reservedAt?: string;
  transferredAt?: string;
  releasedAt?: string;
  expiredAt?: string;
}

const checkId = (inventoryItemId: string, reservationId: string) => `reservation-check:${inventoryItemId}/${reservationId}`;
const settleId = (holderId: string) => `reservation-settle:${holderId}`;

function due(timerId: string, event: RecordedEvent, at: string | undefined, graceMs: number): DueTimer {
  return {
    timerId,
    kind: KIND,
    dueAt: new Date(Date.parse(at ?? event.createdAt) + graceMs).toISOString(),
    workspaceId: event.metadata.workspaceId,
    subjectId: timerId.slice(timerId.indexOf(':') + 1),
  };
}

export function reservationSource(graceMs = RESERVATION_GRACE_MS): TimerSource {
  return {
    name: 'reservation-reconciler',
    version: 1,
    eventTypes: [
      'inventory.reserved',
      'inventory.reservation_transferred',
      'inventory.released',
      'inventory.sold',
      'trade.initiated',
      'trade.status_changed',
      'hold.created',
      'hold.released',
      'hold.expired',
    ],
    timersOf(event) {
      const d = event.data as Named;
      switch (event.type) {
        case 'inventory.reserved':
        case 'inventory.reservation_transferred':
          return { schedule: [due(checkId(d.inventoryItemId ?? '', d.reservationId ?? ''), event, d.reservedAt ?? d.transferredAt, graceMs)] };
        case 'inventory.released':
        case 'inventory.sold':
          return { cancel: [checkId(d.inventoryItemId ?? '', d.reservationId ?? ''), settleId(d.holderId ?? '')] };
        case 'trade.initiated':
          return { cancel: [checkId(d.inventoryItemId ?? '', d.reservationId ?? '')] };
        case 'hold.created':
          return { cancel: [checkId(d.inventoryItemId ?? '', d.holdId ?? '')] };
        case 'trade.status_changed':
          return d.to === 'cancelled' || d.to === 'completed' ? { schedule: [due(settleId(d.tradeId ?? ''), event, d.at, graceMs)] } : {};
        case 'hold.released':
        case 'hold.expired':
          return { schedule: [due(settleId(streamEntityId(event.streamId)), event, d.releasedAt ?? d.expiredAt, graceMs)] };
        default:
          return {};
      }
    },
  };
}

/** A trade or hold, as far as its units go. */
interface Holder {
  status: string;
  inventoryItemId: string;
  reservationId: string;
}

@Injectable()
export class ReservationReconciler implements TimerHandler {
  readonly kind = KIND;
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async fire(timers: readonly DueTimer[], now: Date): Promise<void> {
    for (const timer of timers) {
      await handleCommands(this.events, { workspaceId: timer.workspaceId, actor: 'reconciler' }, (tx) =>
        timer.timerId.startsWith('reservation-check:') ? this.check(tx, timer, now) : this.settle(tx, timer, now),
      );
    }
  }

  /** A holder ended: finish what its ending owed the item. */
  private async settle(tx: Transaction, timer: DueTimer, now: Date): Promise<void> {
    const holderId = timer.subjectId;
    const holder = await this.holderOf(tx, timer.workspaceId, holderId);
    if (!holder) return;
    await this.reconcile(tx, timer.workspaceId, holder.inventoryItemId, holder.reservationId, now, { holderId, holder });
  }

  /** A reservation's holder did not show up in time: reconcile the reservation with what exists. */
  private check(tx: Transaction, timer: DueTimer, now: Date): Promise<void> {
    const [inventoryItemId, reservationId] = timer.subjectId.split('/');
    return this.reconcile(tx, timer.workspaceId, inventoryItemId, reservationId, now);
  }

  private async reconcile(
    tx: Transaction,
    workspaceId: string,
    inventoryItemId: string,
    reservationId: string,
    now: Date,
    known?: { holderId: string; holder: Holder | null },
  ): Promise<void> {
    const item = await itemFor(tx, workspaceId, inventoryItemId);
    const held = item.reservation(reservationId);
    // Only trading's own holders (trades, holds): a live lot's units are its own context's to settle.
    if (!held || !/^(trd|hld)_/.test(held.holderId)) return;
    // A stream is loaded once per transaction: a holder the caller loaded already is reused.
    const holder = known?.holderId === held.holderId ? known.holder : await this.holderOf(tx, workspaceId, held.holderId);
    const why = (what: string) => `reconciled: ${what}`;
    if (!holder) {
      // A conversion that reserved for its trade but never made it: the units go back to the hold.
      const hold = reservationId.startsWith('hld_') && held.holderId !== reservationId ? await this.holderOf(tx, workspaceId, reservationId) : null;
      if (hold?.status === 'active') item.transfer(tx, reservationId, reservationId, now);
      else item.release(tx, reservationId, why(`holder ${held.holderId} never came to exist`), now);
      return;
    }
    if (holder.status === 'completed' || holder.status === 'settled') item.sell(tx, reservationId, now);
    else if (['cancelled', 'released', 'expired'].includes(holder.status)) item.release(tx, reservationId, why(`${held.holderId} ${holder.status}`), now);
  }

  /** A trade or hold as far as its units go; null when its stream does not exist. */
  private async holderOf(tx: Transaction, workspaceId: string, holderId: string): Promise<Holder | null> {
    if (holderId.startsWith('trd_')) {
      const trade = await tx.load(tradeStream(holderId), tradeAggregate, { workspaceId });
      return trade.state.status === 'none' ? null : trade.state.trade;
    }
    const hold = await tx.load(holdStream(holderId), holdAggregate, { workspaceId });
    return hold.state.status === 'none' ? null : { ...hold.state.hold, reservationId: holderId };
  }
}
