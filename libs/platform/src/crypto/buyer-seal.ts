// A buyer (personal data: who they are in the client's system, how they are named): sealed with the
// SecretBox before it is written, so it is never in clear in the log nor in a read model, and
// opened only to answer. Each seal is bound to the record that holds it (the AAD, a context such
// as `buyer_request:<id>`, `reserve:<id>`, `hold:<id>`): a sealed buyer copied onto another record
// does not open. Opening costs tens of microseconds (a fresh AES-GCM decipher), and the same
// records are read over and over, so what was opened is kept in a bounded memo keyed by the sealed
// value, in this process only.
import { Inject, Injectable, Optional } from '@nestjs/common';
import { z } from 'zod';

import { SECRET_BOX, type SecretBox, SecretBoxError } from './secret-box';

/** Who a buyer is (personal data: stored sealed, opened only for an answer; never log it). */
export interface BuyerIdentity {
  /** The buyer's id in the client's own system. */
  externalId: string | null;
  /** How the buyer is named to the other party. */
  displayName: string | null;
}

/** What a sealed buyer holds (JSON), both keys always present. */
const sealedBuyer = z.strictObject({ externalId: z.string().nullable(), displayName: z.string().nullable() });

/** Opened buyers kept in memory; the oldest is dropped beyond this many. */
const OPENED_BUYERS = 10_000;

@Injectable()
export class BuyerSeal {
  private readonly opened = new Map<string, { context: string; buyer: BuyerIdentity }>();

  constructor(@Optional() @Inject(SECRET_BOX) private readonly box?: SecretBox) {}

  /** The buyer sealed for the record named by `context`, or null for none. */
  seal(context: string, buyer: BuyerIdentity | null): string | null {
    if (buyer === null) return null;
    const plain: BuyerIdentity = { externalId: buyer.externalId, displayName: buyer.displayName };
    return this.secretBox().seal(JSON.stringify(plain), context);
  }

  /** The buyer a sealed value of the record holds (null for none); throws SecretBoxError when it does not open. */
  open(context: string, sealed: string | null | undefined): BuyerIdentity | null {
    if (sealed === null || sealed === undefined) return null;
    const known = this.opened.get(sealed);
    if (known && known.context === context) return { ...known.buyer };
    const parsed = sealedBuyer.safeParse(parseJson(this.secretBox().open(sealed, context)));
    // Never the zod issues: they could quote what was sealed.
    if (!parsed.success) throw new SecretBoxError('a sealed buyer opened to something that is not a buyer');
    if (this.opened.size >= OPENED_BUYERS) this.opened.delete(this.opened.keys().next().value as string);
    this.opened.set(sealed, { context, buyer: parsed.data });
    return { ...parsed.data };
  }

  /** Whether the sealed value names exactly this buyer (one that no longer opens names none). */
  holds(context: string, sealed: string | null, buyer: BuyerIdentity | null): boolean {
    if (sealed === null || buyer === null) return sealed === null && buyer === null;
    try {
      const current = this.open(context, sealed);
      return current?.externalId === buyer.externalId && current.displayName === buyer.displayName;
    } catch (error) {
      if (error instanceof SecretBoxError) return false;
      throw error;
    }
  }

  private secretBox(): SecretBox {
    if (!this.box) throw new Error('buyers are sealed with the SecretBox (SECRET_BOX), which is not provided');
    return this.box;
  }
}

/** JSON.parse without its error message, which quotes the text. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
