// A key vault for personal data, one data key per data subject (a buyer), so that destroying one
// key makes everything sealed with it unreadable wherever it lies — the append-only event log
// included, which is never rewritten (crypto-shredding). Each data key is random (32 bytes),
// stored wrapped by the process-wide SecretBox (the master key) and bound to its subject, in a
// read-store collection of its own: not a projection of the log (a rebuild never touches it), like
// the idempotency records. Destroying a key replaces it with a tombstone that keeps only when.
//
// Written against both read stores' real semantics: get-or-create runs in one read-store
// transaction (SQLite: serialized; MongoDB: a write conflict aborts and retries the loser, which
// then finds the winner's key), and nothing outside the store happens inside it. The unwrapped
// keys are never cached: another process may destroy a key at any time, and an erasure must hold
// from the next read on in every process.
import { randomBytes } from 'node:crypto';

import type { Clock } from '../clock';
import type { CollectionSpec, Doc, ReadStore } from '../read-store/read-store.port';
import { SecretBox, SecretBoxError } from './secret-box';

export const PERSONAL_DATA_KEYS: CollectionSpec = {
  name: 'personal_data_keys',
  indexes: [{ name: 'by_ws_status', fields: [['workspaceId', 1], ['status', 1]] }],
};

/** A subject's key record: its live data key (wrapped), or the tombstone of an erasure. */
export interface PersonalDataKeyDoc extends Doc {
  workspaceId: string;
  status: 'active' | 'erased';
  /** Names the live data key (the SecretBox key id of the data key, as sealed values name it); null once erased. */
  keyId: string | null;
  /** The data key sealed by the master SecretBox, bound to subject and key id; null once erased. */
  wrappedKey: string | null;
  createdAt: string;
  /** When the last key was destroyed (null: never). */
  erasedAt: string | null;
}

/** Whether a subject's personal data can be read: never seen, readable, or erased. */
export type PersonalDataStatus = 'unknown' | 'active' | 'erased';

/** What opening a sealed value gives: the text, or why there is none. */
export type OpenedPersonalData = { state: 'open'; text: string } | { state: 'erased' };

export interface SealedFor {
  subjectId: string;
  sealed: string;
  /** The AAD the value was sealed with (the record holding it). */
  context: string;
}

const wrapContext = (workspaceId: string, subjectId: string): string => `personal-data-key:${workspaceId}:${subjectId}`;

/** The key id a sealed value names (`sb1.<keyId>.…`), or null when it names none. */
function keyIdOf(sealed: string): string | null {
  return /^sb1\.([0-9a-f]{8})\./.exec(sealed)?.[1] ?? null;
}

export class PersonalDataVault {
  constructor(
    private readonly reads: ReadStore,
    private readonly master: SecretBox,
    private readonly clock: Clock,
  ) {}

  private get keys() {
    return this.reads.collection<PersonalDataKeyDoc>(PERSONAL_DATA_KEYS);
  }

  /** Seals `plaintext` with the subject's data key, made on first use (again after an erasure: a new key). */
  async seal(workspaceId: string, subjectId: string, plaintext: string, context: string): Promise<string> {
    const box = await this.liveKey(workspaceId, subjectId);
    return box.seal(plaintext, context);
  }

  /**
   * Opens values sealed by seal(), in order. A value whose key was destroyed (or replaced after an
   * erasure) is `erased`; a value that does not authenticate throws SecretBoxError, as tampering must.
   */
  async openMany(workspaceId: string, values: readonly SealedFor[]): Promise<OpenedPersonalData[]> {
    if (values.length === 0) return [];
    const docs = await this.keys.getMany([...new Set(values.map((v) => v.subjectId))]);
    const boxes = new Map<string, SecretBox | null>();
    for (const doc of docs) boxes.set(doc.id, doc.workspaceId === workspaceId ? this.unwrap(doc) : null);
    return values.map(({ subjectId, sealed, context }): OpenedPersonalData => {
      const box = boxes.get(subjectId) ?? null;
      if (!box || keyIdOf(sealed) !== box.keyId) return { state: 'erased' };
      return { state: 'open', text: box.open(sealed, context) };
    });
  }

  async open(workspaceId: string, value: SealedFor): Promise<OpenedPersonalData> {
    const [opened] = await this.openMany(workspaceId, [value]);
    return opened;
  }

  /** Where the subject's personal data stands in this workspace (another workspace's subject is `unknown`). */
  async status(workspaceId: string, subjectId: string): Promise<{ status: PersonalDataStatus; keyId: string | null; erasedAt: string | null }> {
    const doc = await this.keys.get(subjectId);
    if (!doc || doc.workspaceId !== workspaceId) return { status: 'unknown', keyId: null, erasedAt: null };
    return { status: doc.status, keyId: doc.keyId, erasedAt: doc.erasedAt };
  }

  /**
   * Destroys the subject's data key `keyId` (when it is still the live one): every value sealed
   * with it is unreadable from now on. Returns the subject's record after it (null: unknown here).
   */
  async destroy(workspaceId: string, subjectId: string, keyId: string, at: Date = this.clock.now()): Promise<PersonalDataKeyDoc | null> {
    return this.reads.transaction(async () => {
      const doc = await this.keys.get(subjectId);
      if (!doc || doc.workspaceId !== workspaceId) return null;
      if (doc.status !== 'active' || doc.keyId !== keyId) return doc;
      const erased: PersonalDataKeyDoc = { ...doc, status: 'erased', keyId: null, wrappedKey: null, erasedAt: at.toISOString() };
      await this.keys.put(erased);
      return erased;
    });
  }

  /** The subject's live data key, made (in one transaction) when it has none. */
  private async liveKey(workspaceId: string, subjectId: string): Promise<SecretBox> {
    const existing = await this.keys.get(subjectId);
    if (existing) {
      this.ownedBy(existing, workspaceId);
      const box = this.unwrap(existing);
      if (box) return box;
    }
    const doc = await this.reads.transaction(async () => {
      const current = await this.keys.get(subjectId);
      if (current?.status === 'active') return current;
      // Made inside: on MongoDB the function may run again, and only the committed run's key counts.
      const key = randomBytes(32);
      const keyId = new SecretBox(key).keyId;
      const now = this.clock.now().toISOString();
      const made: PersonalDataKeyDoc = {
        id: subjectId,
        workspaceId,
        status: 'active',
        keyId,
        wrappedKey: this.master.seal(key.toString('base64url'), `${wrapContext(workspaceId, subjectId)}:${keyId}`),
        createdAt: current?.createdAt ?? now,
        erasedAt: current?.erasedAt ?? null,
      };
      key.fill(0);
      await this.keys.put(made);
      return made;
    });
    this.ownedBy(doc, workspaceId);
    const box = this.unwrap(doc);
    if (!box) throw new SecretBoxError('a personal-data key was made but does not open');
    return box;
  }

  private ownedBy(doc: PersonalDataKeyDoc, workspaceId: string): void {
    // Subject ids are derived per workspace, so another workspace's is a bug, never a request to serve.
    if (doc.workspaceId !== workspaceId) throw new Error(`personal-data subject ${doc.id} belongs to another workspace`);
  }

  private unwrap(doc: PersonalDataKeyDoc): SecretBox | null {
    if (doc.status !== 'active' || !doc.keyId || !doc.wrappedKey) return null;
    const key = Buffer.from(this.master.open(doc.wrappedKey, `${wrapContext(doc.workspaceId, doc.id)}:${doc.keyId}`), 'base64url');
    const box = new SecretBox(key);
    key.fill(0);
    if (box.keyId !== doc.keyId) throw new SecretBoxError('a personal-data key does not match its key id');
    return box;
  }
}
