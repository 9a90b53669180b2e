/** lambdas/data/table/retry.ts: which DynamoDB errors are retried, the full-jitter backoff and its bounds. */
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, isRetryableDynamoError, withDynamoRetries } from '../../lambdas/data/table/retry.js';

const err = (name: string, extra: object = {}) => Object.assign(new Error(name), { name }, extra);
const cancelled = (...codes: string[]) => err('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });

describe('isRetryableDynamoError', () => {
  it('retries throttling, transaction contention, 5xx and connection errors', () => {
    for (const n of ['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'TransactionConflictException', 'InternalServerError']) {
      expect(isRetryableDynamoError(err(n)), n).toBe(true);
    }
    expect(isRetryableDynamoError(Object.assign(new Error('x'), { __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException' }))).toBe(true);
    expect(isRetryableDynamoError(cancelled('None', 'TransactionConflict'))).toBe(true);
    expect(isRetryableDynamoError(cancelled('ThrottlingError', 'None'))).toBe(true);
    expect(isRetryableDynamoError(err('Error', { statusCode: 503 }))).toBe(true);
    expect(isRetryableDynamoError(new Error('@aws-lite/client: dynamodb: connect ECONNREFUSED 127.0.0.1:1'))).toBe(true);
    expect(isRetryableDynamoError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
  });
  it('never retries a failed condition or a malformed request', () => {
    expect(isRetryableDynamoError(cancelled('ConditionalCheckFailed', 'TransactionConflict'))).toBe(false);
    expect(isRetryableDynamoError(cancelled('None', 'None'))).toBe(false);
    expect(isRetryableDynamoError(err('ConditionalCheckFailedException'))).toBe(false);
    expect(isRetryableDynamoError(err('ValidationException', { statusCode: 400 }))).toBe(false);
    expect(isRetryableDynamoError('ThrottlingException')).toBe(false);
  });
});

describe('withDynamoRetries', () => {
  it('full jitter: a wait in [0, min(cap, base × 2^(n−1)))', () => {
    expect(backoffDelayMs(1, DEFAULT_RETRY_POLICY, () => 0.999)).toBe(24);
    expect(backoffDelayMs(3, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(50);
    expect(backoffDelayMs(20, DEFAULT_RETRY_POLICY, () => 0.999)).toBe(999);
    expect(backoffDelayMs(5, DEFAULT_RETRY_POLICY, () => 0)).toBe(0);
  });
  it('retries until success, at most maxAttempts, and throws the last error', async () => {
    const waits: number[] = [];
    let n = 0;
    const out = await withDynamoRetries(async () => (++n < 3 ? Promise.reject(err('TransactionConflictException')) : 'ok'), { sleep: async (ms) => void waits.push(ms), random: () => 0.5 });
    expect([out, n, waits]).toEqual(['ok', 3, [12, 25]]);
    n = 0;
    await expect(withDynamoRetries(async () => (n++, Promise.reject(err('ThrottlingException'))), { sleep: async () => {}, policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 4 } })).rejects.toThrow('ThrottlingException');
    expect(n).toBe(4);
  });
  it('stops when the total time would pass maxTotalMs, and never retries a non-retryable error', async () => {
    let clock = 0;
    let n = 0;
    const p = withDynamoRetries(async () => (n++, Promise.reject(err('ThrottlingException'))), { now: () => clock, sleep: async (ms) => void (clock += ms), random: () => 0.999, policy: { maxAttempts: 100, baseMs: 100, capMs: 1000, maxTotalMs: 2000 } });
    await expect(p).rejects.toThrow('ThrottlingException');
    expect(clock).toBeLessThanOrEqual(2000);
    expect(n).toBeLessThan(100);
    n = 0;
    await expect(withDynamoRetries(async () => (n++, Promise.reject(cancelled('ConditionalCheckFailed'))), { sleep: async () => {} })).rejects.toThrow();
    expect(n).toBe(1);
  });
});

describe('what the API answers once the retries are spent (lambdas/http/faults.ts)', () => {
  it('transaction contention is 503 like throttling; a failed condition is not', async () => {
    const { isStorageUnavailable } = await import('../../lambdas/http/faults.js');
    expect(isStorageUnavailable(err('TransactionConflictException'))).toBe(true);
    expect(isStorageUnavailable(cancelled('None', 'TransactionConflict'))).toBe(true);
    expect(isStorageUnavailable(cancelled('ThrottlingError'))).toBe(true);
    expect(isStorageUnavailable(Object.assign(new Error('lost 8 races'), { cause: cancelled('TransactionConflict', 'None') }))).toBe(true);
    expect(isStorageUnavailable(cancelled('ConditionalCheckFailed', 'TransactionConflict'))).toBe(false);
    expect(isStorageUnavailable(cancelled('ConditionalCheckFailed'))).toBe(false);
  });
});
