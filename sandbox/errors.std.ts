import { platformErrors, type ErrorBody, type PlatformError } from '../api/operations.std.ts';

export type FieldErrors = Record<string, string[]>;

/**
 * Thrown anywhere in request handling; the HTTP layer turns it into the platform's error body.
 * `code` is a published platform code (api/errors.std.ts) or, where none fits, the HTTP status.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
  }

  get body(): ErrorBody {
    const body: ErrorBody = { message: this.message, code: this.code, status_code: this.status };
    if (this.errors) body.errors = this.errors;
    return body;
  }
}

/** A 400 listing what is wrong per field, the way the platform reports validation failures. */
export function invalidInput(errors: FieldErrors): ApiError {
  const messages = Object.values(errors).flat();
  const more = messages.length > 1 ? ` (and ${messages.length - 1} more)` : '';
  return new ApiError(400, platformErrors.invalidInput.code, `${messages[0] ?? 'Invalid input.'}${more}`, errors);
}

export function invalidField(field: string, message: string): ApiError {
  return invalidInput({ [field]: [message] });
}

export function notFound(error: PlatformError, message: string): ApiError {
  return new ApiError(404, error.code, message);
}

export function conflict(error: PlatformError, message: string): ApiError {
  return new ApiError(409, error.code, message);
}

/** For failures no platform code describes: the code is the HTTP status itself. */
export function httpError(status: number, message: string): ApiError {
  return new ApiError(status, status, message);
}
