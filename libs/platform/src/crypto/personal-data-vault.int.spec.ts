// The personal-data key vault on the embedded read store: one key per subject, made once even
// when first uses race, values opened only with their own key and context, and a destroyed key
// making every value sealed with it unreadable (while a new value after the erasure gets a new key).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { closeTempStores, openTempStores, type TempStores } from '@app/testing/support/sqlite-stores';
import { FakeClock } from '@app/testing/support/fake-clock';

import { PERSONAL_DATA_KEYS, type PersonalDataKeyDoc, PersonalDataVault } from './personal-data-vault';
import { SecretBox, SecretBoxError } from './secret-box';

const WS = 'ws_vault';
const SUBJECT = 'buyer_0123456789abcdef01234567';
const EMAIL = 'winifred.oakenshield@example.org';

describe('PersonalDataVault (SQLite read store)', () => {
  let stores: TempStores;
  let vault: PersonalDataVault;
  const clock = new FakeClock('2026-01-01T00:00:00.000Z');
  const master = new SecretBox(randomBytes(32));

  beforeEach(() => {
    stores = openTempStores('vault-');
    vault = new PersonalDataVault(stores.reads, master, clock);
  });
  afterEach(() => closeTempStores(stores));

  it('seals with a key of the subject and opens with the same context only', async () => {
    const sealed = await vault.seal(WS, SUBJECT, EMAIL, 'buyer_request:br_1:contact');
    expect(sealed).not.toContain(EMAIL);
    await expect(vault.open(WS, { subjectId: SUBJECT, sealed, context: 'buyer_request:br_1:contact' })).resolves.toEqual({ state: 'open', text: EMAIL });
    await expect(vault.open(WS, { subjectId: SUBJECT, sealed, context: 'buyer_request:br_2:contact' })).rejects.toBeInstanceOf(SecretBoxError);
    // Another workspace never opens it.
    await expect(vault.open('ws_other', { subjectId: SUBJECT, sealed, context: 'buyer_request:br_1:contact' })).resolves.toEqual({ state: 'erased' });
    expect((await vault.status(WS, SUBJECT)).status).toBe('active');
    expect((await vault.status('ws_other', SUBJECT)).status).toBe('unknown');
  });

  it('makes one key per subject, however many first uses race', async () => {
    const sealed = await Promise.all(Array.from({ length: 8 }, (_, i) => vault.seal(WS, SUBJECT, `${EMAIL}#${i}`, `c${i}`)));
    const keyIds = new Set(sealed.map((s) => s.split('.')[1]));
    expect(keyIds.size).toBe(1);
    const opened = await vault.openMany(WS, sealed.map((s, i) => ({ subjectId: SUBJECT, sealed: s, context: `c${i}` })));
    expect(opened.map((o) => (o.state === 'open' ? o.text : null))).toEqual(sealed.map((_, i) => `${EMAIL}#${i}`));
  });

  it('a destroyed key leaves its values unreadable; a later value gets a new key', async () => {
    const before = await vault.seal(WS, SUBJECT, EMAIL, 'a');
    const { keyId } = await vault.status(WS, SUBJECT);
    clock.advance(1000);
    const erased = await vault.destroy(WS, SUBJECT, keyId!);
    expect(erased).toMatchObject({ status: 'erased', keyId: null, wrappedKey: null, erasedAt: '2026-01-01T00:00:01.000Z' });
    await expect(vault.open(WS, { subjectId: SUBJECT, sealed: before, context: 'a' })).resolves.toEqual({ state: 'erased' });
    // Destroying again, or from another workspace, changes nothing.
    await expect(vault.destroy(WS, SUBJECT, keyId!)).resolves.toMatchObject({ status: 'erased' });
    await expect(vault.destroy('ws_other', SUBJECT, keyId!)).resolves.toBeNull();

    const after = await vault.seal(WS, SUBJECT, EMAIL, 'b');
    await expect(vault.open(WS, { subjectId: SUBJECT, sealed: after, context: 'b' })).resolves.toEqual({ state: 'open', text: EMAIL });
    // The old value stays unreadable under the new key.
    await expect(vault.open(WS, { subjectId: SUBJECT, sealed: before, context: 'a' })).resolves.toEqual({ state: 'erased' });
    const doc = await stores.reads.collection<PersonalDataKeyDoc>(PERSONAL_DATA_KEYS).get(SUBJECT);
    expect(doc).toMatchObject({ status: 'active', erasedAt: '2026-01-01T00:00:01.000Z' });
  });

  it('keeps no key in clear in the database file', async () => {
    await vault.seal(WS, SUBJECT, EMAIL, 'a');
    const doc = await stores.reads.collection<PersonalDataKeyDoc>(PERSONAL_DATA_KEYS).get(SUBJECT);
    const key = Buffer.from(master.open(doc!.wrappedKey!, `personal-data-key:${WS}:${SUBJECT}:${doc!.keyId}`), 'base64url');
    // Closed (closing again in afterEach is a no-op), so the WAL is checkpointed into read.db.
    await stores.reads.close();
    const bytes = Buffer.concat(['read.db', 'read.db-wal'].map((f) => {
      try {
        return readFileSync(join(stores.dir, f));
      } catch {
        return Buffer.alloc(0);
      }
    }));
    expect(bytes.includes(key)).toBe(false);
    expect(bytes.includes(Buffer.from(key.toString('base64url')))).toBe(false);
    expect(bytes.includes(Buffer.from(EMAIL))).toBe(false);
  });
});
