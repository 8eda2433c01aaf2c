// A widget buyer's contact through the real write path, log, read model and key vault (embedded
// SQLite): sealed with the buyer's own key before anything is written (neither the events nor the
// database files hold the email), opened for reads; the erasure destroys the key, so the contact
// is unreadable from then on — the log untouched — and a rebuild of the read model from that log
// still works and shows the request without its contact.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BuyerSeal, PersonalDataVault, ProjectionRunner, SecretBox, SystemClock, UlidIdGenerator } from '@app/platform';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { type BuyerRequestInput, CreateBuyerRequestCommand, CreateBuyerRequestHandler } from '../buyer-request/buyer-request.handlers';
import { buyerRequestMatchesProjection, matchProjection } from '../buyer-request/buyer-request-matches.projection';
import { buyerRequestProjection } from '../buyer-request/buyer-request.projection';
import { GetBuyerRequestHandler, GetBuyerRequestQuery, ListBuyerRequestsHandler, ListBuyerRequestsQuery } from '../buyer-request/buyer-request.queries';
import type { InstantMatching } from '../buyer-request/instant-matching.port';
import { BUYER_ID_PATTERN } from './buyer-id';
import { BuyerContacts } from './buyer-contacts';
import { EraseBuyerPersonalDataCommand, EraseBuyerPersonalDataHandler } from './buyer.handlers';

const WS = 'ws_contacts';
const EMAIL = 'Ottoline.Featherstonehaugh@Example.ORG';
const NOTE = 'call me on 0170 5550199 after six';

const request: BuyerRequestInput = {
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  maxPriceMinor: 45_000,
  currency: 'USD',
  source: 'widget',
  contact: { email: EMAIL, note: NOTE },
};

describe('a widget buyer\'s contact, sealed with their own key, and its erasure (int)', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;
  let projections: ProjectionRunner;
  let create: CreateBuyerRequestHandler;
  let get: GetBuyerRequestHandler;
  let list: ListBuyerRequestsHandler;
  let erase: EraseBuyerPersonalDataHandler;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'contacts-'));
    events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
    reads = new SqliteReadStore(join(dir, 'read.db'));
    projections = new ProjectionRunner(events, reads, { pollMs: 10 });
    projections.register(buyerRequestProjection, buyerRequestMatchesProjection, matchProjection);
    await projections.start();
    const matching: InstantMatching = { inventoryPosition: () => Promise.resolve(0), fullMatches: () => Promise.resolve([]) };
    const clock = new SystemClock();
    const box = new SecretBox(randomBytes(32));
    const vault = new PersonalDataVault(reads, box, clock);
    const contacts = new BuyerContacts(vault, box);
    const buyers = new BuyerSeal(box);
    create = new CreateBuyerRequestHandler(events, clock, new UlidIdGenerator(), matching, buyers, contacts);
    get = new GetBuyerRequestHandler(reads, buyers, contacts);
    list = new ListBuyerRequestsHandler(reads, buyers, contacts);
    erase = new EraseBuyerPersonalDataHandler(events, clock, vault);
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
  const fileText = (name: string): string =>
    [name, `${name}-wal`]
      .map((file) => join(dir, file))
      .filter((path) => existsSync(path))
      .map((path) => readFileSync(path).toString('latin1'))
      .join('');
  const secrets = [EMAIL, EMAIL.toLowerCase(), 'Featherstonehaugh', 'featherstonehaugh', NOTE, '5550199'];

  it('names one buyer per email in a workspace, and never holds the contact in clear', async () => {
    const first = await create.execute(new CreateBuyerRequestCommand(WS, 'widget', request));
    const second = await create.execute(
      new CreateBuyerRequestCommand(WS, 'widget', { ...request, cardName: 'Blastoise', contact: { email: ` ${EMAIL.toUpperCase()} `, note: null } }),
    );
    const elsewhere = await create.execute(new CreateBuyerRequestCommand('ws_other', 'widget', request));
    await settle();
    expect(first.buyerId).toMatch(BUYER_ID_PATTERN);
    expect(second.buyerId).toBe(first.buyerId);
    expect(elsewhere.buyerId).not.toBe(first.buyerId);

    const recorded = await events.readAll({ fromPosition: 0, limit: 100 });
    const created = recorded.filter((e) => e.type === 'buyer_request.created');
    expect(created).toHaveLength(3);
    for (const e of created) expect(e.data).toMatchObject({ buyerId: expect.stringMatching(BUYER_ID_PATTERN), contactSealed: expect.stringMatching(/^sb1\./) });
    for (const secret of secrets) {
      expect(JSON.stringify(recorded)).not.toContain(secret);
      expect(fileText('events.db')).not.toContain(secret);
      expect(fileText('read.db')).not.toContain(secret);
    }

    const answered = await get.execute(new GetBuyerRequestQuery(WS, first.id));
    expect(answered).toMatchObject({ buyerId: first.buyerId, contact: { email: EMAIL, note: NOTE }, contactErased: false });
    const page = await list.execute(new ListBuyerRequestsQuery(WS, 10, undefined, { buyerId: first.buyerId! }));
    expect(page.items.map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
  });

  it('erasure makes the contact unreadable everywhere without rewriting the log; a rebuild still shows the request', async () => {
    const { id, buyerId } = await create.execute(new CreateBuyerRequestCommand(WS, 'widget', request));
    const other = await create.execute(new CreateBuyerRequestCommand(WS, 'widget', { ...request, contact: { email: 'someone.else@example.org', note: null } }));
    const plain = await create.execute(new CreateBuyerRequestCommand(WS, 'api', { ...request, contact: undefined }));
    await settle();
    const logBefore = await events.readAll({ fromPosition: 0, limit: 100 });

    const erased = await erase.execute(new EraseBuyerPersonalDataCommand(WS, 'key_admin', buyerId!));
    expect(erased).toMatchObject({ buyerId, position: expect.any(Number) });
    // Again: the same erasure, nothing recorded.
    await expect(erase.execute(new EraseBuyerPersonalDataCommand(WS, 'key_admin', buyerId!))).resolves.toMatchObject({ erasedAt: erased.erasedAt, position: null });
    // Another workspace's buyer, or one never seen: not found.
    await expect(erase.execute(new EraseBuyerPersonalDataCommand('ws_other', 'key_admin', buyerId!))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await settle();

    const logAfter = await events.readAll({ fromPosition: 0, limit: 100 });
    expect(logAfter.slice(0, logBefore.length)).toEqual(logBefore);
    expect(logAfter.slice(logBefore.length).map((e) => [e.type, e.streamId, e.data])).toEqual([
      ['buyer.personal_data_erased', `buyer-${buyerId}`, { buyerId, keyId: expect.stringMatching(/^[0-9a-f]{8}$/), erasedAt: erased.erasedAt }],
    ]);

    const check = async (): Promise<void> => {
      await expect(get.execute(new GetBuyerRequestQuery(WS, id))).resolves.toMatchObject({ buyerId, contact: null, contactErased: true, cardName: 'Charizard' });
      await expect(get.execute(new GetBuyerRequestQuery(WS, other.id))).resolves.toMatchObject({ contact: { email: 'someone.else@example.org' }, contactErased: false });
      await expect(get.execute(new GetBuyerRequestQuery(WS, plain.id))).resolves.toMatchObject({ buyerId: null, contact: null, contactErased: false });
    };
    await check();
    await projections.rebuild(buyerRequestProjection.name);
    await settle();
    await check();

    // The same address again is a new consent: a new key, only the new contact readable.
    const again = await create.execute(new CreateBuyerRequestCommand(WS, 'widget', { ...request, contact: { email: EMAIL, note: 'back again' } }));
    await settle();
    expect(again.buyerId).toBe(buyerId);
    await expect(get.execute(new GetBuyerRequestQuery(WS, again.id))).resolves.toMatchObject({ contact: { email: EMAIL, note: 'back again' } });
    await expect(get.execute(new GetBuyerRequestQuery(WS, id))).resolves.toMatchObject({ contact: null, contactErased: true });
  });
});
