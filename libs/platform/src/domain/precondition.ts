// Optimistic concurrency over HTTP: a write sent with `If-Match` names the version (the stream
// revision) the client decided on; when the stream has moved on, the write is refused whole —
// 412 PRECONDITION_FAILED — instead of being decided on a state the client has not seen.

/** The ETag of a stream revision: weak, since an answer may also show other resources' data. */
export function etagOf(revision: number): string {
  return `W/"${revision}"`;
}

export class PreconditionFailedError extends Error {
  override readonly name = 'PreconditionFailedError';
  constructor(
    readonly streamId: string,
    /** The revision `If-Match` named. */
    readonly expected: number,
    /** The stream's revision now; -1 when it does not exist. */
    readonly actual: number,
  ) {
    super(`${streamId} is at version ${etagOf(actual)}, not ${etagOf(expected)} (If-Match): it changed since it was read`);
  }
}

/** Refuses a decision on a stream no longer at the revision `If-Match` named (none named: no check). */
export function assertIfMatch(streamId: string, ifMatch: number | undefined, revision: number): void {
  if (ifMatch !== undefined && ifMatch !== revision) throw new PreconditionFailedError(streamId, ifMatch, revision);
}
