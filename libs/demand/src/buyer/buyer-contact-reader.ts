// What another context may read of a widget buyer's contact (notifications, to email the buyer
// when a card they want is in stock): per buyer request, the pseudonymous buyer id and the contact
// opened with the buyer's own key — null once erased (crypto-shredding), and `erased` says so.
// Opened only for the moment of a send; never log, record or publish what this answers.
import { Inject, Injectable } from '@nestjs/common';

import { READ_STORE, type ReadStore } from '@app/platform';

import { BUYER_REQUESTS, type BuyerRequestDoc } from '../buyer-request/buyer-request.projection';
import { contactSealContext } from '../buyer-request/buyer-request.events';
import { type BuyerContact, BuyerContacts } from './buyer-contacts';

export const BUYER_CONTACT_READER = Symbol('BUYER_CONTACT_READER');

/** A request's buyer as the reader answers it. */
export interface RequestBuyer {
  buyerRequestId: string;
  /** `buyer_…`; null when the request has no buyer contact (not from the widget). */
  buyerId: string | null;
}

/** A request's buyer with the contact opened: null when there is none or it was erased. */
export interface RequestBuyerContact extends RequestBuyer {
  contact: BuyerContact | null;
  /** The buyer's personal data was erased: the contact no longer opens. */
  erased: boolean;
}

export interface BuyerContactReader {
  /** The buyer id of each request of `workspaceId` that exists (in the order asked; others left out). Opens nothing. */
  buyersOf(workspaceId: string, buyerRequestIds: readonly string[]): Promise<RequestBuyer[]>;
  /** The contact of each request of `workspaceId` that exists, opened (in the order asked; others left out). */
  contactsOf(workspaceId: string, buyerRequestIds: readonly string[]): Promise<RequestBuyerContact[]>;
}

@Injectable()
export class BuyerContactReadModel implements BuyerContactReader {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly contacts: BuyerContacts,
  ) {}

  private async docs(workspaceId: string, ids: readonly string[]): Promise<BuyerRequestDoc[]> {
    if (ids.length === 0) return [];
    const found = await this.reads.collection<BuyerRequestDoc>(BUYER_REQUESTS).getMany([...new Set(ids)]);
    const byId = new Map(found.filter((d) => d.workspaceId === workspaceId).map((d) => [d.id, d]));
    return [...new Set(ids)].flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  async buyersOf(workspaceId: string, buyerRequestIds: readonly string[]): Promise<RequestBuyer[]> {
    return (await this.docs(workspaceId, buyerRequestIds)).map((d) => ({ buyerRequestId: d.id, buyerId: d.buyerId ?? null }));
  }

  async contactsOf(workspaceId: string, buyerRequestIds: readonly string[]): Promise<RequestBuyerContact[]> {
    const docs = await this.docs(workspaceId, buyerRequestIds);
    const opened = await this.contacts.openMany(
      workspaceId,
      docs.map((d) => ({ buyerId: d.buyerId, contactSealed: d.contactSealed, context: contactSealContext(d.id) })),
    );
    return docs.map((d, i) => ({ buyerRequestId: d.id, buyerId: d.buyerId ?? null, contact: opened[i].contact, erased: opened[i].erased }));
  }
}
