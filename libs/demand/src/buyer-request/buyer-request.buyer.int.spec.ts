// The buyer a request names, through the real write path, log and read model (embedded SQLite):
// it is sealed before anything is written, so neither the events (as read back, nor the database
// files' bytes) nor the read model hold it in clear; the reader opens it. And the matches demand
// records, as the reader port answers them (getMatch).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { FoundMatch } from '@app/contracts';
import { BuyerSeal, InlineProjections, PersonalDataVault, ProjectionRunner, SecretBox, SecretBoxError, SystemClock, UlidIdGenerator } from '@app/platform';
import { handleCommands } from '@app/platform/domain';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { InlineEventStore } from '@app/platform/projections/inline-event-store';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { BuyerContacts } from '../buyer/buyer-contacts';
import { buyerSealContext } from './buyer-request.events';
import {
  type BuyerRequestInput,
  CreateBuyerRequestCommand,
  CreateBuyerRequestHandler,
  toCriteria,
  UpdateBuyerRequestCommand,
  UpdateBuyerRequestHandler,
} from './buyer-request.handlers';
import { loadMatchableRequest } from './buyer-request.matching';
import { buyerRequestMatchesProjection, matchProjection } from './buyer-request-matches.projection';
import { BUYER_REQUESTS, type BuyerRequestDoc, buyerRequestProjection } from './buyer-request.projection';
import { BuyerRequestReadModel, GetBuyerRequestHandler, GetBuyerRequestQuery } from './buyer-request.queries';
import type { InstantMatching } from './instant-matching.port';

const WS = 'ws_buyers';
const OTHER_WS = 'ws_elsewhere';
const EXTERNAL_ID = 'crm-ZQ-884712';
const DISPLAY_NAME = 'Philippa Quartermaine';
const NEW_NAME = 'Philippa Q. Ashcombe';

const request: BuyerRequestInput = {
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  maxPriceMinor: 45_000,
  currency: 'USD',
  source: null,
};

const found = (matchId: string, item: string, kind: FoundMatch['kind'], score: number): FoundMatch => ({
  matchId,
  inventoryItemId: item,
  kind,
  score,
  factors: [{ name: 'name_similarity', value: 1, weight: 0.4, contribution: 0.4 }],
  reasons: ['same card'],
});

describe('buyer request buyers and matches (SQLite)', () => {
  let dir: string;
  let stored: SqliteEventStore;
  /** What every writer appends through: the store, with the inline projections after each append. */
  let events: InlineEventStore;
  let reads: SqliteReadStore;
  let projections: ProjectionRunner;
  let buyers: BuyerSeal;
  let reader: BuyerRequestReadModel;
  let contacts: BuyerContacts;
  let create: CreateBuyerRequestHandler;
  let update: UpdateBuyerRequestHandler;
  let instantChecks: number;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'buyers-'));
    stored = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
    reads = new SqliteReadStore(join(dir, 'read.db'));
    const inline = new InlineProjections(stored, reads);
    events = new InlineEventStore(stored, inline);
    projections = new ProjectionRunner(stored, reads, { pollMs: 10, inline });
    projections.register(buyerRequestProjection, buyerRequestMatchesProjection, matchProjection);
    await projections.start();
    instantChecks = 0;
    const matching: InstantMatching = {
      inventoryPosition: () => Promise.resolve(0),
      fullMatches: () => {
        instantChecks += 1;
        return Promise.resolve([]);
      },
    };
    const clock = new SystemClock();
    const ids = new UlidIdGenerator();
    const box = new SecretBox(randomBytes(32));
    buyers = new BuyerSeal(box);
    contacts = new BuyerContacts(new PersonalDataVault(reads, box, clock), box);
    reader = new BuyerRequestReadModel(reads, buyers, projections);
    create = new CreateBuyerRequestHandler(events, clock, ids, matching, buyers, contacts);
    update = new UpdateBuyerRequestHandler(events, clock, ids, matching, buyers, inline);
  });

  afterEach(async () => {
    await projections.stop();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const settle = async (): Promise<void> => {
    expect(await projections.waitFor(await events.headPosition(), 5000)).toBe(true);
  };
  const logged = async () => events.readAll({ fromPosition: 0, limit: 1000 });
  /** The bytes of a database and its write-ahead log, as a backup or a stolen disk would hold them. */
  const fileText = (name: string): string =>
    [name, `${name}-wal`]
      .map((file) => join(dir, file))
      .filter((path) => existsSync(path))
      .map((path) => readFileSync(path).toString('latin1'))
      .join('');

  it('seals the buyer in the log and the read model, and opens it for readers', async () => {
    const { id } = await create.execute(
      new CreateBuyerRequestCommand(WS, 'test', { ...request, buyer: { externalId: EXTERNAL_ID, displayName: DISPLAY_NAME } }),
    );
    await update.execute(new UpdateBuyerRequestCommand(WS, 'test', id, { buyer: { externalId: EXTERNAL_ID, displayName: NEW_NAME } }));
    await settle();

    const recorded = await logged();
    expect(recorded.map((e) => e.type)).toEqual(['buyer_request.created', 'buyer_request.updated']);
    for (const e of recorded) expect((e.data as { buyerSealed: string }).buyerSealed).toMatch(/^sb1\./);
    expect(recorded[1].data).toMatchObject({ changedFields: ['buyer'] });
    // The files are read as they are: the request's other fields are there in clear.
    expect(fileText('events.db')).toContain('Charizard');
    expect(fileText('read.db')).toContain('Charizard');
    for (const secret of [EXTERNAL_ID, DISPLAY_NAME, NEW_NAME, 'Quartermaine', 'crm-ZQ']) {
      expect(JSON.stringify(recorded)).not.toContain(secret);
      expect(fileText('events.db')).not.toContain(secret);
      expect(fileText('read.db')).not.toContain(secret);
    }
    const doc = await reads.collection<BuyerRequestDoc>(BUYER_REQUESTS).get(id);
    expect(doc?.buyerSealed).toBe((recorded[1].data as { buyerSealed: string }).buyerSealed);

    const [view] = await reader.getMany([id]);
    expect(view.buyer).toEqual({ externalId: EXTERNAL_ID, displayName: NEW_NAME });
    expect(view).not.toHaveProperty('buyerSealed');
    const answered = await new GetBuyerRequestHandler(reads, buyers, contacts).execute(new GetBuyerRequestQuery(WS, id));
    expect(answered.buyer).toEqual({ externalId: EXTERNAL_ID, displayName: NEW_NAME });
  });

  it('a change of buyer alone records no matches and skips the instant check; the same buyer again changes nothing', async () => {
    const { id } = await create.execute(new CreateBuyerRequestCommand(WS, 'test', request));
    expect(instantChecks).toBe(1);
    await update.execute(new UpdateBuyerRequestCommand(WS, 'test', id, { buyer: { externalId: null, displayName: DISPLAY_NAME } }));
    await update.execute(new UpdateBuyerRequestCommand(WS, 'test', id, { buyer: { externalId: null, displayName: DISPLAY_NAME } }));
    expect(instantChecks).toBe(1);
    await update.execute(new UpdateBuyerRequestCommand(WS, 'test', id, { buyer: null }));
    await update.execute(new UpdateBuyerRequestCommand(WS, 'test', id, { buyer: null }));
    await settle();

    const recorded = await logged();
    expect(recorded.map((e) => [e.type, (e.data as { changedFields?: string[] }).changedFields])).toEqual([
      ['buyer_request.created', undefined],
      ['buyer_request.updated', ['buyer']],
      ['buyer_request.updated', ['buyer']],
    ]);
    expect((recorded[0].data as { buyerSealed: unknown }).buyerSealed).toBeNull();
    expect((recorded[2].data as { buyerSealed: unknown }).buyerSealed).toBeNull();
    expect((await reader.getMany([id]))[0].buyer).toBeNull();
  });

  it('reads events written before buyers existed as naming none, and can give such a request a buyer', async () => {
    // Version 1 of `created` (no match identity, no input) and an `updated`, both without `buyerSealed`.
    const at = new Date().toISOString();
    const metadata = { workspaceId: WS, actor: 'test', schemaVersion: 1 };
    await events.append(
      'buyer_request-br_old',
      [
        { type: 'buyer_request.created', data: { buyerRequestId: 'br_old', ...request, createdAt: at }, metadata },
        {
          type: 'buyer_request.updated',
          data: {
            buyerRequestId: 'br_old',
            ...toCriteria({ ...request, maxPriceMinor: 40_000 }),
            changedFields: ['maxPriceMinor'],
            input: {},
            updatedAt: at,
          },
          metadata,
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await settle();
    expect((await reader.getMany(['br_old']))[0]).toMatchObject({ maxPriceMinor: 40_000, buyer: null });
    await update.execute(new UpdateBuyerRequestCommand(WS, 'test', 'br_old', { buyer: null }));
    expect(await logged()).toHaveLength(2); // no buyer, and none asked for
    await update.execute(new UpdateBuyerRequestCommand(WS, 'test', 'br_old', { buyer: { externalId: null, displayName: DISPLAY_NAME } }));
    await settle();
    expect((await reader.getMany(['br_old']))[0].buyer).toEqual({ externalId: null, displayName: DISPLAY_NAME });
  });

  it('a sealed buyer opens only for its own request', async () => {
    const sealed = buyers.seal(buyerSealContext('br_a'), { externalId: EXTERNAL_ID, displayName: null });
    expect(buyers.open(buyerSealContext('br_a'), sealed)).toEqual({ externalId: EXTERNAL_ID, displayName: null });
    expect(() => buyers.open(buyerSealContext('br_b'), sealed)).toThrow(SecretBoxError);
    expect(buyers.holds(buyerSealContext('br_b'), sealed, { externalId: EXTERNAL_ID, displayName: null })).toBe(false);
    // Another key (a lost or replaced one) does not open it either.
    expect(() => new BuyerSeal(new SecretBox(randomBytes(32))).open(buyerSealContext('br_a'), sealed)).toThrow(SecretBoxError);
  });

  it('answers the matches recorded for a request of the workspace, full or near miss', async () => {
    const { id } = await create.execute(new CreateBuyerRequestCommand(WS, 'test', request));
    const record = (matches: FoundMatch[]) =>
      handleCommands(events, { workspaceId: WS, actor: 'test' }, async (tx) => {
        const loaded = await loadMatchableRequest(tx, WS, id);
        loaded?.recordMatches(tx, matches, new Date());
      });
    await record([found('mt_full', 'inv_1', 'full', 0.95), found('mt_near', 'inv_2', 'near_miss', 0.6)]);
    // No wait: a match just recorded is found (the match index is waited for, the rest is the request's own).
    expect(await reader.getMatch(WS, 'mt_full')).toEqual({
      matchId: 'mt_full',
      buyerRequestId: id,
      inventoryItemId: 'inv_1',
      kind: 'full',
      score: 0.95,
    });
    expect(await reader.getMatch(WS, 'mt_near')).toEqual({
      matchId: 'mt_near',
      buyerRequestId: id,
      inventoryItemId: 'inv_2',
      kind: 'near_miss',
      score: 0.6,
    });
    expect(await reader.getMatch(OTHER_WS, 'mt_full')).toBeNull();
    expect(await reader.getMatch(WS, 'mt_unknown')).toBeNull();

    // A near miss that later meets every criterion is the same match, now full, at once.
    await record([found('mt_other_id', 'inv_2', 'full', 0.9)]);
    expect(await reader.getMatch(WS, 'mt_near')).toMatchObject({ kind: 'full', score: 0.9 });
    expect(await reader.getMatch(WS, 'mt_other_id')).toBeNull();
  });

  it('reads requests that name no buyer without a SecretBox, and refuses to open one without it', async () => {
    const { id } = await create.execute(new CreateBuyerRequestCommand(WS, 'test', request));
    const buyer = { externalId: EXTERNAL_ID, displayName: null };
    const withBuyer = await create.execute(new CreateBuyerRequestCommand(WS, 'test', { ...request, buyer }));
    await settle();
    const unsealed = new BuyerRequestReadModel(reads);
    expect((await unsealed.getMany([id]))[0].buyer).toBeNull();
    await expect(unsealed.getMany([withBuyer.id])).rejects.toThrow('SecretBox');
  });
});
