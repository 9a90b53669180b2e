/**
 * Idempotent execution of client requests that carry an `Idempotency-Key` header (e.g. `POST /incidents`),
 * with Powertools for AWS Lambda's idempotency utility (`makeIdempotent`,
 * https://docs.powertools.aws.dev/lambda/typescript/latest/features/idempotency/) on the single table, stored
 * through the data layer's document client (`DocumentClientPersistenceLayer`, `idempotency-store.ts`).
 *
 * Records live in the tenant's own partition: `PK = TENANT#<t>#IDEMPOTENCY`, `SK = <operation>#<md5 of
 * [tenantId, key]>`, with Powertools' `status`, `data` (the stored result), `validation` (hash of the
 * request payload) and the table's TTL attribute `expiresAt` (epoch seconds, 24 h after completion).
 *
 * Outcomes (mapped to `ApiError`s, never a 500):
 *  - first call: runs `run()`, stores its result, returns it;
 *  - retry with the same key and payload: returns the stored result, `run()` is not called;
 *  - same key, different payload → 409 IDEMPOTENCY_KEY_REUSED;
 *  - retry while the first call is still running → 409 IDEMPOTENCY_IN_PROGRESS.
 * If `run()` throws, the record is deleted (Powertools) so the client may retry with the same key.
 */
import type { IdempotentRequest } from '../domain/ports.js';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { IdempotencyAlreadyInProgressError, IdempotencyValidationError } from '@aws-lambda-powertools/idempotency';
import { TABLE_DESIGN } from './table/table-design.js';
import { ApiError } from '../domain/errors.js';
import { type TableRef } from './table/client.js';
import { DocumentClientPersistenceLayer } from './idempotency-store.js';
import { keys } from './table/keys.js';

/** How long a completed request's result is replayed, seconds (24 h, as common payment APIs do). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export type { IdempotentRequest };

/**
 * Runs `run` at most once per (tenant, operation, key) within `IDEMPOTENCY_TTL_SECONDS`; see module doc.
 * The result must be JSON-serialisable (it is stored and replayed).
 * @throws ApiError IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_IN_PROGRESS; whatever `run` throws.
 */
export async function runIdempotent<T>(req: IdempotentRequest, run: () => Promise<T>, table: TableRef): Promise<T> {
  const persistenceStore = new DocumentClientPersistenceLayer({
    table,
    keyAttr: TABLE_DESIGN.partitionKey,
    sortKeyAttr: TABLE_DESIGN.sortKey,
    staticPkValue: keys.idempotencyPk(req.tenantId),
    expiryAttr: TABLE_DESIGN.ttlAttribute,
  });
  const config = new IdempotencyConfig({
    eventKeyJmesPath: '[tenantId, key]',
    payloadValidationJmesPath: 'payload',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    throwOnNoIdempotencyKey: true,
  });
  if (req.lambdaContext) config.registerLambdaContext(req.lambdaContext);
  const fn = makeIdempotent(async (_input: Omit<IdempotentRequest, 'lambdaContext'>) => run(), { persistenceStore, config, keyPrefix: req.operation });
  try {
    return (await fn({ operation: req.operation, tenantId: req.tenantId, key: req.key, payload: req.payload })) as T;
  } catch (e) {
    if (e instanceof IdempotencyValidationError) {
      throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was already used with a different request body');
    }
    if (e instanceof IdempotencyAlreadyInProgressError) {
      throw new ApiError('IDEMPOTENCY_IN_PROGRESS', 'a request with this Idempotency-Key is still being processed; retry shortly');
    }
    throw e;
  }
}
