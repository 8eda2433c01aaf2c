// Errors a decider may raise. Pure (no Nest): the HTTP layer maps each code to a status.
export type DomainErrorCode = 'NOT_FOUND' | 'CONFLICT' | 'INVALID_TRANSITION' | 'VALIDATION_FAILED';

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
