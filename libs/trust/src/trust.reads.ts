// Reading trust for the routes: a seller's current credential by slug (its serialized forms kept
// per credential, since a credential never changes once issued), its inputs — made when asked from
// the seller's outcome rows, kept in a ledger as they arrive (so a seller's inputs are read whole
// once per process, then only the rows since) — and the seller's own summary and scan counts.
import { createHash } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';

import { WorkspaceDirectory } from '@app/access';
import { ApiError, READ_STORE, type ReadStore } from '@app/platform';

import { type CredentialForm, credentialDocument } from './credential/credential';
import { TrustRefs } from './trust.issuer';
import { SCAN_DAYS, type ScanDayDoc } from './scan/scan.projection';
import { TrustInputsLedger } from './score/inputs-ledger';
import { SELLERS, type SellerDoc } from './seller/seller-trust.projection';

const KEPT = 1000;

export interface ServedCredential {
  credentialId: string;
  body: string;
  etag: string;
}

@Injectable()
export class TrustReads {
  private readonly bodies = new Map<string, ServedCredential>();
  private readonly ledger: TrustInputsLedger;

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly workspaces: WorkspaceDirectory,
    refs: TrustRefs,
  ) {
    this.ledger = new TrustInputsLedger(refs.refOf);
  }

  /** A workspace's slug (its seller slug). */
  async slugOf(workspaceId: string): Promise<string> {
    return (await this.workspaces.byId(workspaceId))?.slug ?? workspaceId;
  }

  async sellerBySlug(slug: string): Promise<SellerDoc | null> {
    const page = await this.reads.collection<SellerDoc>(SELLERS).find({ slug }, { limit: 1 });
    return page.items[0] ?? null;
  }

  async seller(workspaceId: string): Promise<SellerDoc | null> {
    return this.reads.collection<SellerDoc>(SELLERS).get(workspaceId);
  }

  /**
   * The seller's current credential in one form; 404 for a seller without one. Its ETag names the
   * credential and the bytes served: a changed serialization of the same credential is a new ETag,
   * so no cache revalidates its way into keeping an older one.
   */
  async credential(slug: string, form: CredentialForm): Promise<ServedCredential> {
    const seller = await this.required(slug);
    const c = seller.credential;
    const key = `${c.credentialId}|${form}`;
    let served = this.bodies.get(key);
    if (served === undefined) {
      const body = JSON.stringify(credentialDocument(c, form));
      const digest = createHash('sha256').update(body).digest('base64url').slice(0, 12);
      served = { credentialId: c.credentialId, body, etag: `"${c.credentialId.slice('urn:uuid:'.length)}-${form === 'spec' ? 'jws' : 'di'}-${digest}"` };
      if (this.bodies.size >= KEPT) this.bodies.delete(this.bodies.keys().next().value as string);
      this.bodies.set(key, served);
    }
    return served;
  }

  /** The canonical inputs text of the seller's current credential. */
  async inputs(slug: string): Promise<{ body: string; etag: string }> {
    const seller = await this.required(slug);
    const inputs = await this.currentInputs(seller);
    return { body: inputs, etag: `"${seller.credential.subject.inputsHash.slice('sha256:'.length)}"` };
  }

  /** The canonical inputs text of a seller's current credential. */
  async currentInputs(seller: SellerDoc): Promise<string> {
    const c = seller.credential;
    return this.inputsText({ workspaceId: seller.id, asOf: c.subject.asOf, inputsPosition: c.inputsPosition });
  }

  /**
   * The canonical inputs text of a credential: the seller's rows with an outcome up to its inputs'
   * position (all in the read model by the time the credential is: the projection applies in log
   * order), as of its `asOf`.
   */
  async inputsText(c: { workspaceId: string; asOf: string; inputsPosition: number }): Promise<string> {
    return (await this.ledger.current(this.reads, c.workspaceId)).text(c.asOf, c.inputsPosition);
  }

  async scans(workspaceId: string, from: string, to: string): Promise<ScanDayDoc[]> {
    const page = await this.reads.collection<ScanDayDoc>(SCAN_DAYS).find({ workspaceId, day: { $gte: from, $lte: to } }, { sort: [['day', 1]], limit: 400 });
    return page.items;
  }

  private async required(slug: string): Promise<SellerDoc> {
    const seller = await this.sellerBySlug(slug);
    if (!seller) {
      throw new ApiError(404, 'NOT_FOUND', `No trust credential for seller ${slug}: a seller has one once a trade of theirs has completed`, { slug });
    }
    return seller;
  }
}
