// A widget buyer's contact (email and note: personal data) as demand keeps it: sealed with the
// buyer's own data key in the PersonalDataVault, under the buyer's pseudonymous id, and opened only
// to answer a read. Erasing the buyer's personal data destroys the key: every contact sealed with
// it — in the log, the read models and any backup of them — no longer opens, and reads answer it
// as erased. Never log what this opens.
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';

import { PersonalDataVault, SECRET_BOX, type SecretBox, SecretBoxError } from '@app/platform';

import { BUYER_ID_KEY_PURPOSE, buyerIdOf } from './buyer-id';

/** How to reach a buyer who left a want list (personal data). */
export interface BuyerContact {
  email: string;
  note: string | null;
}

/** A contact as reads answer it: readable, erased, or none at all. */
export type ContactState = { contact: BuyerContact; erased: false } | { contact: null; erased: boolean };

const sealedContact = z.strictObject({ email: z.string(), note: z.string().nullable() });

/** What a record holding a sealed contact gives to open it. */
export interface SealedContactRef {
  buyerId: string | null | undefined;
  contactSealed: string | null | undefined;
  /** The AAD it was sealed with (the record's own). */
  context: string;
}

@Injectable()
export class BuyerContacts {
  private readonly idKey: Buffer;

  constructor(
    private readonly vault: PersonalDataVault,
    @Inject(SECRET_BOX) box: SecretBox,
  ) {
    this.idKey = box.deriveKey(BUYER_ID_KEY_PURPOSE);
  }

  /** The buyer id of an email in a workspace (nothing is stored). */
  buyerIdOf(workspaceId: string, email: string): string {
    return buyerIdOf(this.idKey, workspaceId, email);
  }

  /** The contact sealed with its buyer's key (made on the buyer's first request), bound to `context`. */
  async seal(workspaceId: string, contact: BuyerContact, context: string): Promise<{ buyerId: string; contactSealed: string }> {
    const buyerId = this.buyerIdOf(workspaceId, contact.email);
    const plain: BuyerContact = { email: contact.email, note: contact.note };
    return { buyerId, contactSealed: await this.vault.seal(workspaceId, buyerId, JSON.stringify(plain), context) };
  }

  /** The contacts of records of one workspace, in order. */
  async openMany(workspaceId: string, refs: readonly SealedContactRef[]): Promise<ContactState[]> {
    const sealed = refs.flatMap((r) => (r.buyerId && r.contactSealed ? [{ subjectId: r.buyerId, sealed: r.contactSealed, context: r.context }] : []));
    const opened = await this.vault.openMany(workspaceId, sealed);
    let next = 0;
    return refs.map((r): ContactState => {
      if (!r.buyerId || !r.contactSealed) return { contact: null, erased: false };
      const one = opened[next++];
      if (one.state === 'erased') return { contact: null, erased: true };
      const parsed = sealedContact.safeParse(parseJson(one.text));
      // Never the zod issues: they could quote what was sealed.
      if (!parsed.success) throw new SecretBoxError('a sealed contact opened to something that is not a contact');
      return { contact: parsed.data, erased: false };
    });
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
