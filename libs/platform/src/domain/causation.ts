// Causation carried through a command without threading it through every command class: a process
// manager that acts on an event (an automation rule) runs the commands it sends inside
// `withCausation`, and every event the write path (handleCommand, handleCommands) decides inside it
// carries the cause's id, its correlation id and the extra metadata (e.g. the automation chain).
// The scope also collects the events actually appended inside it (a version-conflict retry drops
// the attempt it replaces), so the caller can name what its action caused.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Causation {
  /** The id of the event that caused what is decided inside the scope. */
  causationId: string;
  correlationId?: string;
  /** Extra metadata for every event decided inside the scope (plain JSON). */
  metadata?: Readonly<Record<string, unknown>>;
}

export interface CausedEvent {
  id: string;
  type: string;
}

interface Scope {
  causation: Causation;
  caused: CausedEvent[];
}

const scopes = new AsyncLocalStorage<Scope>();

/** Runs `work` with `causation` on every event it decides; answers its value and the events decided. */
export async function withCausation<T>(causation: Causation, work: () => Promise<T>): Promise<{ value: T; caused: CausedEvent[] }> {
  const scope: Scope = { causation, caused: [] };
  const value = await scopes.run(scope, work);
  return { value, caused: scope.caused };
}

/** The causation of the current scope, when inside one. */
export function currentCausation(): Causation | undefined {
  return scopes.getStore()?.causation;
}

/** `metadata` as an event decided here carries it: inside a scope the cause, its correlation and its extra metadata win. */
export function causedMetadata<M extends { correlationId?: string }>(metadata: M): M & { causationId?: string } {
  const causation = currentCausation();
  if (!causation) return metadata;
  return { ...metadata, ...causation.metadata, causationId: causation.causationId, correlationId: causation.correlationId ?? metadata.correlationId };
}

/**
 * Runs `work` outside any causation scope: for work started on behalf of several callers at once
 * (a StreamDesk batch), which carry their own causation in their metadata (causedMetadata).
 */
export function outsideCausation<T>(work: () => T): T {
  return scopes.exit(work);
}

/** Notes events about to be appended in the current scope (nothing outside one). */
export function noteCaused(events: readonly CausedEvent[]): void {
  scopes.getStore()?.caused.push(...events.map(({ id, type }) => ({ id, type })));
}

/** How many events the scope has noted, to drop an attempt's with `dropCausedAfter` when it is retried. */
export function causedMark(): number {
  return scopes.getStore()?.caused.length ?? 0;
}

export function dropCausedAfter(mark: number): void {
  const scope = scopes.getStore();
  if (scope) scope.caused.length = Math.min(scope.caused.length, mark);
}
