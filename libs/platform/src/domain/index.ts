// The domain entry (`@app/platform/domain`): everything a decider, an event contract or a command
// handler's write needs, and nothing that loads NestJS or a database driver — the decider type,
// DomainError, the log's port types and the one write path (handleCommand for one stream,
// handleCommands for several). Given/when/then for deciders: `@app/testing/support/decider-spec`.
export { base32, CROCKFORD_BASE32, normalizeEmail, RFC4648_BASE32_LOWER } from '../crypto/encoding';
export { type Causation, type CausedEvent, currentCausation, withCausation } from './causation';
export { type Decider, type DomainEvent, fold } from './decider';
export { DomainError, type DomainErrorCode, type ValidationIssue } from './domain-error';
export { type CommandResult, type CommandSource, handleCommand, type HandleOptions } from './handle-command';
export {
  type DecideOptions,
  handleCommands,
  type StreamHandle,
  type StreamOutcome,
  type Transaction,
  type TransactionOptions,
  type TransactionResult,
} from './handle-commands';
export { parseOnce } from './parse-once';
export { assertIfMatch, etagOf, PreconditionFailedError } from './precondition';
export { type DeskOutcome, StreamDesk, type StreamDeskOptions } from './stream-desk';
export { type Aggregate, type CommandMetadata, type EventLog, type LoadedStream, loadStream, type LoadOptions } from './stream-writes';
export {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type StreamWrite,
  WrongExpectedRevisionError,
} from '../event-store/event-store.port';
