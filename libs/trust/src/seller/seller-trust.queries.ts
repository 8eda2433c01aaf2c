// Reading sellers' trust: a seller's current credential by slug (its serialized forms kept per
// credential, since a credential never changes once issued), its inputs — made when asked from the
// seller's outcome rows, kept in a ledger as they arrive (so a seller's inputs are read whole once
// per process, then only the rows since) — and the seller's own summary. The routes and the CLI ask
// through the query bus; the registry and the audit share the read model itself (one ledger).
import { createHash } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { WorkspaceDirectory } from '@app/access';
import { ApiError, READ_STORE, type ReadStore } from '@app/platform';

import { type CredentialForm, credentialDocument } from '../credential/credential';
import { TrustInputsLedger } from '../score/inputs-ledger';
import { TrustRefs } from './seller-trust.issuer';
import { SELLERS, type SellerDoc } from './seller-trust.projection';

const KEPT = 1000;

export interface ServedCredential {
  credentialId: string;
  body: string;
  etag: string;
}

@Injectable()
export class SellerTrustReadModel {
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

  private async required(slug: string): Promise<SellerDoc> {
    const seller = await this.sellerBySlug(slug);
    if (!seller) {
      throw new ApiError(404, 'NOT_FOUND', `No trust credential for seller ${slug}: a seller has one once a trade of theirs has completed`, { slug });
    }
    return seller;
  }
}

/** A seller's trust (current credential, flag) by workspace id; null before its first credential. */
export class GetSellerTrustQuery extends Query<SellerDoc | null> {
  constructor(readonly workspaceId: string) {
    super();
  }
}

@QueryHandler(GetSellerTrustQuery)
export class GetSellerTrustHandler implements IQueryHandler<GetSellerTrustQuery> {
  constructor(private readonly sellers: SellerTrustReadModel) {}

  execute({ workspaceId }: GetSellerTrustQuery): Promise<SellerDoc | null> {
    return this.sellers.seller(workspaceId);
  }
}

/** A seller's trust by slug (what the public routes name sellers by); null before its first credential. */
export class FindSellerTrustBySlugQuery extends Query<SellerDoc | null> {
  constructor(readonly slug: string) {
    super();
  }
}

@QueryHandler(FindSellerTrustBySlugQuery)
export class FindSellerTrustBySlugHandler implements IQueryHandler<FindSellerTrustBySlugQuery> {
  constructor(private readonly sellers: SellerTrustReadModel) {}

  execute({ slug }: FindSellerTrustBySlugQuery): Promise<SellerDoc | null> {
    return this.sellers.sellerBySlug(slug);
  }
}

/** A workspace's slug (its seller slug; the id itself for a workspace unknown). */
export class SellerSlugQuery extends Query<string> {
  constructor(readonly workspaceId: string) {
    super();
  }
}

@QueryHandler(SellerSlugQuery)
export class SellerSlugHandler implements IQueryHandler<SellerSlugQuery> {
  constructor(private readonly sellers: SellerTrustReadModel) {}

  execute({ workspaceId }: SellerSlugQuery): Promise<string> {
    return this.sellers.slugOf(workspaceId);
  }
}

/** The seller's current credential as served in one form (body and ETag); 404 without one. */
export class GetServedCredentialQuery extends Query<ServedCredential> {
  constructor(
    readonly slug: string,
    readonly form: CredentialForm,
  ) {
    super();
  }
}

@QueryHandler(GetServedCredentialQuery)
export class GetServedCredentialHandler implements IQueryHandler<GetServedCredentialQuery> {
  constructor(private readonly sellers: SellerTrustReadModel) {}

  execute({ slug, form }: GetServedCredentialQuery): Promise<ServedCredential> {
    return this.sellers.credential(slug, form);
  }
}

/** The canonical inputs text of the seller's current credential, and its ETag; 404 without one. */
export class GetCredentialInputsQuery extends Query<{ body: string; etag: string }> {
  constructor(readonly slug: string) {
    super();
  }
}

@QueryHandler(GetCredentialInputsQuery)
export class GetCredentialInputsHandler implements IQueryHandler<GetCredentialInputsQuery> {
  constructor(private readonly sellers: SellerTrustReadModel) {}

  execute({ slug }: GetCredentialInputsQuery): Promise<{ body: string; etag: string }> {
    return this.sellers.inputs(slug);
  }
}

export const SELLER_TRUST_QUERY_HANDLERS = [GetSellerTrustHandler, FindSellerTrustBySlugHandler, SellerSlugHandler, GetServedCredentialHandler, GetCredentialInputsHandler];
