// When each API key was last used. Operational metadata, not domain history: recording every
// request as an event would flood the log, so it lives in a read-store collection of its own
// (not a projection: rebuilds leave it alone), written at most once a minute per key and process.
import { Inject, Injectable } from '@nestjs/common';

import { CLOCK, type Clock, type Doc, READ_STORE, type ReadStore, storageFaultOf } from '@app/platform';

interface UsageDoc extends Doc {
  lastUsedAt: string;
}

const API_KEY_USAGE = { name: 'api_key_usage', indexes: [] } as const;
const WRITE_EVERY_MS = 60_000;

@Injectable()
export class ApiKeyUsage {
  private readonly lastWritten = new Map<string, number>();

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Notes a use of the key; cheap when it was noted less than a minute ago. */
  async touch(keyId: string): Promise<void> {
    const now = this.clock.now();
    const last = this.lastWritten.get(keyId);
    if (last !== undefined && now.getTime() - last < WRITE_EVERY_MS) return;
    this.lastWritten.set(keyId, now.getTime());
    try {
      await this.reads.collection<UsageDoc>(API_KEY_USAGE).put({ id: keyId, lastUsedAt: now.toISOString() });
    } catch (error) {
      // With the disk full a read must still be served: this note is not worth refusing it for.
      if (storageFaultOf(error) === undefined) throw error;
    }
  }

  async lastUsed(keyIds: readonly string[]): Promise<Map<string, string>> {
    const docs = await this.reads.collection<UsageDoc>(API_KEY_USAGE).getMany(keyIds);
    return new Map(docs.map((d) => [d.id, d.lastUsedAt]));
  }
}
