// The peer side of `npm run bench:peer`: Emmett's SQLite event store (@event-driven-io/emmett-sqlite,
// installed under bench/peer/ only), in-process like ours, tuned as well as its options allow:
// - one connection for everything (its `singleton` ambient connection): by default it opens a new
//   sqlite3 connection for every append or read of a file database, which is far slower. On one
//   connection, appends made at the same time share a transaction (its nesting counter), so 1b is
//   group-committed on its side — and the append that finishes first is acknowledged before that
//   transaction commits (ours, direct or through AppendBatcher, answers only after its commit);
// - WAL (it sets that itself) and PRAGMA synchronous set to the level measured on that connection;
// - its consumer with `pullingFrequencyInMs: 0`: by default it sleeps 50 ms after every batch even
//   when more events wait (at batches of 100 that caps it at 2,000 events/s).
// Expected revisions: Emmett counts a stream's version from 1 (0n = the stream must not exist), so
// `expected` here is its version, not our 0-based revision; the check is the same.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const PEER_PACKAGE = '@event-driven-io/emmett-sqlite';

export async function openEmmett(peerDir, dataDir, synchronous) {
  const require = createRequire(join(peerDir, 'package.json'));
  const emmett = await import(require.resolve(PEER_PACKAGE));
  const versionOf = (name) => JSON.parse(readFileSync(join(peerDir, 'node_modules', name, 'package.json'), 'utf8')).version;
  const version = `${PEER_PACKAGE}@${versionOf(PEER_PACKAGE)} (sqlite3@${versionOf('sqlite3')})`;
  const fileName = join(dataDir, 'emmett.db');
  const connection = emmett.sqliteConnection({ fileName });
  await connection.command(`PRAGMA synchronous = ${synchronous}`);
  const store = emmett.getSQLiteEventStore({ fileName, connectionOptions: { singleton: true, connection } });
  await store.schema.migrate();

  return {
    name: 'emmett',
    version,
    pragma: async (name) => Object.values(await connection.querySingle(`PRAGMA ${name}`))[0],
    sqliteVersion: async () => (await connection.querySingle('SELECT sqlite_version() AS v')).v,
    async appendOne(streamId, event, expected) {
      return (await store.appendToStream(streamId, [event], { expectedStreamVersion: expected ?? 0n })).nextExpectedStreamVersion;
    },
    async appendMany(streamId, events, expected) {
      return (await store.appendToStream(streamId, events, { expectedStreamVersion: expected ?? 0n })).nextExpectedStreamVersion;
    },
    async readAllPages(pageSize, onPage) {
      let after = 0n;
      let read = 0;
      for (;;) {
        const { messages, currentGlobalPosition } = await emmett.readMessagesBatch(connection, { after, batchSize: pageSize });
        if (messages.length === 0) return read;
        onPage(messages.map((m) => m.data));
        read += messages.length;
        after = currentGlobalPosition;
      }
    },
    async consume({ processorId, batchSize, lastPosition, deadline, fold }) {
      const consumer = store.consumer({ pulling: { batchSize, pullingFrequencyInMs: 0 } });
      consumer.processor({
        processorId,
        startFrom: 'CURRENT', // its stored checkpoint (the start when none)
        eachMessage: (message) => {
          fold(message.data);
        },
        stopAfter: (message) => message.metadata.globalPosition >= BigInt(lastPosition) || performance.now() >= deadline,
      });
      await consumer.start();
      await consumer.stop();
      const checkpoint = await emmett.readProcessorCheckpoint(connection, { processorId });
      return { checkpoint: checkpoint.lastProcessedPosition === null ? null : Number(checkpoint.lastProcessedPosition) };
    },
    async head() {
      return (await connection.querySingle('SELECT count(*) AS n FROM emt_messages')).n;
    },
    async close() {
      connection.close();
    },
  };
}
