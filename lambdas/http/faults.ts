/**
 * Storage faults the API answers 503 SERVICE_UNAVAILABLE with `Retry-After` instead of 500: DynamoDB
 * throttling or failing, or the endpoint unreachable, after the document client's own retries
 * (`lambdas/data/table/client.ts` retries throttling, 5xx and connection errors with exponential backoff first).
 * Rules: docs/api.md#errors.
 *
 * Recognised (on the error, its `cause` chain or an `AggregateError`'s `errors`, as the data layer's retry
 * helper and Powertools idempotency wrap them):
 *  - DynamoDB error names `ThrottlingException`, `ProvisionedThroughputExceededException`,
 *    `RequestLimitExceeded`, `InternalServerError`, `ServiceUnavailable` (DynamoDB API reference, "Common
 *    errors" and each operation's "Errors"), and the transaction contention the client's retries
 *    (`lambdas/data/table/retry.ts`) could not outlast: `TransactionConflictException`,
 *    `TransactionInProgressException`, a `TransactionCanceledException` with a cancellation reason
 *    `ThrottlingError` / `ProvisionedThroughputExceeded` / `TransactionConflict` and none
 *    `ConditionalCheckFailed` (TransactWriteItems "Errors"; Developer Guide, "Transaction conflict handling");
 *  - Node connection errors (`ECONNREFUSED`, `ECONNRESET`, `ETIMEDOUT`, `EPIPE`, `ENOTFOUND`, `EAI_AGAIN`,
 *    `EHOSTUNREACH`, `ENETUNREACH`, `ECONNABORTED`) on `code`, or in the message of an aws-lite error
 *    (aws-lite 0.x rethrows a connection failure as a plain Error whose message is
 *    `@aws-lite/client: dynamodb: connect ECONNREFUSED …`, without the `code`; measured).
 *
 * A rejected write is not partial: every write of the data layer is one PutItem/UpdateItem or one
 * TransactWriteItems, which DynamoDB applies whole or not at all.
 */

/** `Retry-After` of a 503, seconds (the document client has already spent its retries on this request). */
export const RETRY_AFTER_SECONDS = 2;

const UNAVAILABLE_NAMES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionConflictException',
  'TransactionInProgressException',
]);
const UNAVAILABLE_REASONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'TransactionConflict']);
const CONNECTION_IN_MESSAGE = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNABORTED)\b/;
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

/** Whether `err` (or what it wraps) means the table is throttling or unavailable; see the module doc. */
export function isStorageUnavailable(err: unknown, depth = 0): boolean {
  if (depth > 5 || err === null || typeof err !== 'object') return false;
  const e = err as { name?: unknown; code?: unknown; cause?: unknown; errors?: unknown; CancellationReasons?: unknown };
  if (typeof e.name === 'string' && UNAVAILABLE_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || UNAVAILABLE_NAMES.has(e.code))) return true;
  const message = (err as { message?: unknown }).message;
  if (typeof message === 'string' && message.startsWith('@aws-lite/client:') && CONNECTION_IN_MESSAGE.test(message)) return true;
  if (e.name === 'TransactionCanceledException' && Array.isArray(e.CancellationReasons)) {
    const codes = (e.CancellationReasons as { Code?: unknown }[]).map((r) => r?.Code);
    if (!codes.includes('ConditionalCheckFailed') && codes.some((c) => typeof c === 'string' && UNAVAILABLE_REASONS.has(c))) return true;
  }
  if (Array.isArray(e.errors) && e.errors.some((x) => isStorageUnavailable(x, depth + 1))) return true;
  return isStorageUnavailable(e.cause, depth + 1);
}
