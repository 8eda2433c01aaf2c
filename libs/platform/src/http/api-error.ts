// The one error shape of the API: `{ code, message, details? }` with an HTTP status.
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  static validation(message: string, issues: Array<{ path: string; message: string }>): ApiError {
    return new ApiError(400, 'VALIDATION_FAILED', message, { issues });
  }

  static notFound(what: string, id?: string): ApiError {
    return new ApiError(404, 'NOT_FOUND', id ? `No ${what} with id ${id}` : `${what} not found`);
  }
}

export interface ErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}
