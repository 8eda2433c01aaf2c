// Our side of `npm run bench:peer`: the product's SqliteEventStore, in-process, opened exactly as
// the app opens it (createEventStore with the app's config: only DATA_DIR and SQLITE_SYNCHRONOUS
// set, every other knob at its default — cache, mmap, background WAL checkpoints). The consumer
// stores its checkpoint the way the projections do: in the read store (read.db), in the same
// transaction as the batch's work, reading the log through `subscribe`.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const CHECKPOINTS = { name: 'bench_checkpoints', indexes: [] };

export async function openOurs(appRoot, dataDir, synchronous, { batcher = false } = {}) {
  const require = createRequire(join(appRoot, 'package.json'));
  require('reflect-metadata');
  const dist = (p) => require(join(appRoot, 'dist', p));
  const { loadConfig } = dist('libs/platform/src/config.js');
  const { createEventStore, createReadStore } = dist('libs/platform/src/platform.module.js');
  const { AppendBatcher } = dist('libs/platform/src/event-store/append-batcher.js');
  const { uuidv7 } = dist('libs/platform/src/ids.js');
  const config = loadConfig({ DATA_DIR: dataDir, SQLITE_SYNCHRONOUS: synchronous });
  const store = await createEventStore(config);
  let readStore = null;
  // The app's group commit (webhooks use it): appends handed over in one turn share a transaction.
  const appender = batcher ? new AppendBatcher(store) : store;
  const next = (expected) => (expected === null ? 'no_stream' : expected);

  return {
    name: batcher ? 'ours (AppendBatcher)' : 'ours',
    db: store.db,
    uuidv7,
    pragma: (name) => Object.values(store.db.prepare(`PRAGMA ${name}`).get())[0],
    sqliteVersion: () => store.db.prepare('SELECT sqlite_version() AS v').get().v,
    async appendOne(streamId, event, expected) {
      return (await appender.append(streamId, [event], { expectedRevision: next(expected) })).nextRevision;
    },
    async appendMany(streamId, events, expected) {
      return (await appender.append(streamId, events, { expectedRevision: next(expected) })).nextRevision;
    },
    async readAllPages(pageSize, onPage) {
      let from = 0;
      let read = 0;
      for (;;) {
        const page = await store.readAll({ fromPosition: from, limit: pageSize });
        if (page.length === 0) return read;
        onPage(page.map((e) => e.data));
        read += page.length;
        from = page[page.length - 1].position;
      }
    },
    async consume({ processorId, batchSize, lastPosition, deadline, fold }) {
      readStore ??= await createReadStore(config);
      const checkpoints = readStore.collection(CHECKPOINTS);
      const from = (await checkpoints.get(processorId))?.position ?? 0;
      const subscription = store.subscribe({ fromPosition: from, maxBatchSize: batchSize });
      let position = from;
      for await (const batch of subscription) {
        position = batch[batch.length - 1].position;
        await readStore.transaction(async () => {
          for (const e of batch) fold(e.data);
          await checkpoints.put({ id: processorId, position });
        });
        if (position >= lastPosition || performance.now() >= deadline) break;
      }
      await subscription.close();
      return { checkpoint: (await checkpoints.get(processorId))?.position ?? null };
    },
    async head() {
      return store.headPosition();
    },
    async close() {
      await readStore?.close();
      await store.close();
    },
  };
}
