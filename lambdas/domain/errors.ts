/**
 * The one error type the domain and data layers raise for expected, client-visible outcomes.
 *
 * `code` is an API error code from `ERROR_STATUS` (lambdas/contract/schemas.ts); the HTTP layer maps it to
 * the status and the body `{ code, message, requestId, details? }`. Anything that is not an `ApiError`
 * is an unexpected failure and becomes 500 INTERNAL_ERROR without internals.
 */
import type { ErrorCode } from '../contract/schemas.js';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** One entry of a VALIDATION_FAILED `details` array: `path` is dotted (`body.severity`, `query.limit`). */
export interface FieldIssue {
  path: string;
  message: string;
}
