/**
 * THE retry policy of the DynamoDB document clients (`client.ts` over aws-lite, `sdk-client.ts` over the
 * AWS SDK): which DynamoDB errors are worth sending the same request again, and how long to wait.
 *
 * Policy (Amazon DynamoDB Developer Guide, "Error handling with DynamoDB", error retries and exponential
 * backoff: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html#Programming.Errors.RetryAndBackoff;
 * AWS Architecture Blog, "Exponential Backoff And Jitter", full jitter): before attempt `n` (n ≥ 1) wait a
 * uniformly random time in `[0, min(capMs, baseMs × 2^(n−1)))`; at most `maxAttempts` attempts, and no
 * new attempt once `maxTotalMs` have passed since the first one.
 *
 * Retried (`isRetryableDynamoError`):
 *  - throttling: `ThrottlingException`, `ProvisionedThroughputExceededException`, `RequestLimitExceeded`
 *    (API reference, "Common errors" and each operation's "Errors");
 *  - transaction contention: `TransactionConflictException` (an item-level write hit an item of a transaction
 *    in progress), `TransactionInProgressException`, and a `TransactionCanceledException` whose every
 *    cancellation reason is `None`, `TransactionConflict`, `ThrottlingError` or `ProvisionedThroughputExceeded`
 *    (TransactWriteItems "Errors"; never one with `ConditionalCheckFailed`, `ValidationError`, … — the same
 *    request would fail the same way);
 *  - the service failing: `InternalServerError`, `ServiceUnavailable`, HTTP 5xx, and connection errors
 *    (`ECONNREFUSED`, `ECONNRESET`, …, on `code` or in an aws-lite message).
 *
 * A retried TransactWriteItems must carry the same `ClientRequestToken` (the callers build the request body
 * once), so an attempt whose answer was lost is not applied twice (TransactWriteItems, "ClientRequestToken").
 */

/** Bounds of the backoff; see the module doc. */
export interface RetryPolicy {
  /** Attempts in all, the first included (≥ 1). */
  maxAttempts: number;
  /** Ceiling of the first wait, ms. */
  baseMs: number;
  /** Ceiling of any wait, ms. */
  capMs: number;
  /** No attempt starts later than this after the first one, ms. */
  maxTotalMs: number;
}

/**
 * Default policy: 10 attempts, waits up to 25, 50, 100 … 1,000 ms, within 6 s — long enough to outlast one
 * throttled second of a partition and a burst of transaction conflicts, well inside the API's 29 s.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 10, baseMs: 25, capMs: 1000, maxTotalMs: 6000 };

const RETRYABLE_NAMES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  'TransactionInProgressException',
  'InternalServerError',
  'ServiceUnavailable',
]);
const RETRYABLE_REASONS = new Set(['None', 'TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);
const CONNECTION = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNABORTED)\b/;

/** The DynamoDB error code of `err`: its `name`, or the part after `#` of its `__type`. */
function codeOf(err: { name?: unknown; __type?: unknown }): string {
  const type = typeof err.__type === 'string' ? err.__type : typeof err.name === 'string' ? err.name : '';
  return type.slice(type.lastIndexOf('#') + 1);
}

/** Whether sending the same request again may succeed; see the module doc. */
export function isRetryableDynamoError(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const e = err as { name?: unknown; __type?: unknown; code?: unknown; message?: unknown; statusCode?: unknown; CancellationReasons?: unknown; $metadata?: { httpStatusCode?: number } };
  const code = codeOf(e);
  if (RETRYABLE_NAMES.has(code)) return true;
  if (code === 'TransactionCanceledException') {
    const reasons = Array.isArray(e.CancellationReasons) ? (e.CancellationReasons as Array<{ Code?: unknown } | null>) : [];
    return reasons.length > 0 && reasons.every((r) => RETRYABLE_REASONS.has(String(r?.Code ?? 'None'))) && reasons.some((r) => r?.Code && r.Code !== 'None');
  }
  const status = typeof e.statusCode === 'number' ? e.statusCode : e.$metadata?.httpStatusCode;
  if (typeof status === 'number' && status >= 500) return true;
  if (typeof e.code === 'string' && CONNECTION.test(e.code)) return true;
  return typeof e.message === 'string' && e.message.startsWith('@aws-lite/client:') && CONNECTION.test(e.message);
}

/** The wait before attempt `attempt` (1 = the first retry), ms: full jitter; `random` in [0, 1). */
export function backoffDelayMs(attempt: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Options of {@link withDynamoRetries} (tests replace the clock and the sleep). */
export interface RetryOptions {
  policy?: RetryPolicy;
  isRetryable?: (err: unknown) => boolean;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `attempt` until it resolves, retrying the errors `isRetryable` accepts (default
 * {@link isRetryableDynamoError}) under the policy.
 * @throws the last error: a non-retryable one at once, a retryable one when attempts or time run out.
 */
export async function withDynamoRetries<T>(attempt: (n: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const policy = opts.policy ?? DEFAULT_RETRY_POLICY;
  const retryable = opts.isRetryable ?? isRetryableDynamoError;
  const sleep = opts.sleep ?? realSleep;
  const now = opts.now ?? Date.now;
  const started = now();
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (e) {
      if (!retryable(e) || n + 1 >= policy.maxAttempts) throw e;
      const wait = backoffDelayMs(n + 1, policy, opts.random);
      if (now() + wait - started > policy.maxTotalMs) throw e;
      await sleep(wait);
    }
  }
}
