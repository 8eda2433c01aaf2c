// Errors the domain raises (deciders, command and query handlers, services). Pure (no Nest): the
// HTTP layer maps each code to a status (error-mapping.ts); nothing below it throws an HTTP error.
export type DomainErrorCode =
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'INVALID_TRANSITION'
  | 'VALIDATION_FAILED'
  | 'LIMIT_EXCEEDED'
  /** Fewer units of an inventory item are available than asked for (reserved or sold already). */
  | 'INSUFFICIENT_QUANTITY'
  /** A reserve on a live lot is under the lowest acceptable amount (the starting price, or the best plus the increment). */
  | 'RESERVE_TOO_LOW';

export interface ValidationIssue {
  path: string;
  message: string;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /**
   * 404 NOT_FOUND for an id a request names in a body field (`buyerRequestId`, `matchId`…) that does
   * not exist or is another workspace's: one answer for both, so ids do not leak. The message and
   * `details.field` name the field; `details.id` is the id as sent.
   */
  static unknownReference(field: string, what: string, id: string): DomainError {
    return new DomainError('NOT_FOUND', `No ${what} with id ${id} (body field "${field}")`, { field, id });
  }

  /** 400 VALIDATION_FAILED with `details.issues`, as request validation answers it. */
  static validation(message: string, issues: readonly ValidationIssue[]): DomainError {
    return new DomainError('VALIDATION_FAILED', message, { issues });
  }
}
