/**
 * A Powertools idempotency persistence layer over the data layer's `DocumentClient` (`client.ts`), so the
 * idempotency utility runs on the handlers' light DynamoDB client instead of pulling in the AWS SDK v3
 * (Powertools' own `DynamoDBPersistenceLayer` requires an SDK client). Powertools documents this extension
 * point: "Bring your own persistent store" — extend `BasePersistenceLayer` and implement `_getRecord`,
 * `_putRecord`, `_updateRecord`, `_deleteRecord`
 * (https://docs.powertools.aws.dev/lambda/typescript/latest/features/idempotency/#bring-your-own-persistent-store).
 *
 * Storage, the same as Powertools' DynamoDB layer with `staticPkValue` + `sortKeyAttr`: one item per key,
 * `<partitionKey> = staticPkValue`, `<sortKey> = <idempotency key>`, plus `status`, `data` (stored result),
 * `validation` (payload hash), `in_progress_expiration` (ms since epoch) and the table's TTL attribute
 * (`expiresAt`, s since epoch). A record may be (re)written only when absent, expired, or INPROGRESS
 * with an expired in-progress timestamp — the condition Powertools' DynamoDB layer uses.
 *
 * Errors: `IdempotencyItemAlreadyExistsError` (with the existing record) when that condition fails,
 * `IdempotencyItemNotFoundError` from `_getRecord`; DynamoDB errors otherwise propagate.
 */
import { IdempotencyItemAlreadyExistsError, IdempotencyItemNotFoundError, IdempotencyRecordStatus } from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import type { IdempotencyRecordStatusValue } from '@aws-lambda-powertools/idempotency/types';
import type { AttributeMap, TableRef } from './table/client.js';
import type { IdempotencyRecordItem } from './entities.js';

/** Where and how records are stored (attribute names of the single table). */
export interface DocumentClientPersistenceOptions {
  table: TableRef;
  /** Partition key attribute (`PK`) and its value for every record of this store. */
  keyAttr: string;
  staticPkValue: string;
  /** Sort key attribute (`SK`): holds the hashed idempotency key. */
  sortKeyAttr: string;
  /** TTL attribute, epoch seconds. */
  expiryAttr: string;
}

/** Record attributes (Powertools' names), as `IdempotencyEntity` in `entities.ts` declares them. */
const STATUS = 'status' satisfies keyof IdempotencyRecordItem;
const DATA = 'data' satisfies keyof IdempotencyRecordItem;
const VALIDATION = 'validation' satisfies keyof IdempotencyRecordItem;
const IN_PROGRESS_EXPIRY = 'in_progress_expiration' satisfies keyof IdempotencyRecordItem;

/** See the module doc. */
export class DocumentClientPersistenceLayer extends BasePersistenceLayer {
  readonly #o: DocumentClientPersistenceOptions;

  constructor(options: DocumentClientPersistenceOptions) {
    super();
    this.#o = options;
  }

  #key(idempotencyKey: string): AttributeMap {
    return { [this.#o.keyAttr]: this.#o.staticPkValue, [this.#o.sortKeyAttr]: idempotencyKey };
  }

  #record(item: AttributeMap): IdempotencyRecord {
    return new IdempotencyRecord({
      idempotencyKey: item[this.#o.sortKeyAttr] as string,
      status: item[STATUS] as IdempotencyRecordStatusValue,
      expiryTimestamp: item[this.#o.expiryAttr] as number | undefined,
      inProgressExpiryTimestamp: item[IN_PROGRESS_EXPIRY] as number | undefined,
      responseData: item[DATA] as IdempotencyRecord['responseData'],
      payloadHash: item[VALIDATION] as string | undefined,
    });
  }

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const { Item } = await this.#o.table.doc.send('GetItem', { TableName: this.#o.table.tableName, Key: this.#key(idempotencyKey), ConsistentRead: true });
    if (!Item) throw new IdempotencyItemNotFoundError();
    return this.#record(Item);
  }

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const now = Date.now();
    const item: AttributeMap = {
      ...this.#key(record.idempotencyKey),
      [this.#o.expiryAttr]: record.expiryTimestamp,
      [STATUS]: record.getStatus(),
      [IN_PROGRESS_EXPIRY]: record.inProgressExpiryTimestamp,
      [VALIDATION]: this.isPayloadValidationEnabled() ? record.payloadHash : undefined,
    };
    try {
      await this.#o.table.doc.send('PutItem', {
        TableName: this.#o.table.tableName,
        Item: item,
        ConditionExpression: 'attribute_not_exists(#id) OR #expiry < :now OR (#status = :inprogress AND attribute_exists(#ipe) AND #ipe < :now_ms)',
        ExpressionAttributeNames: { '#id': this.#o.sortKeyAttr, '#expiry': this.#o.expiryAttr, '#status': STATUS, '#ipe': IN_PROGRESS_EXPIRY },
        ExpressionAttributeValues: { ':now': now / 1000, ':now_ms': now, ':inprogress': IdempotencyRecordStatus.INPROGRESS },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      });
    } catch (e) {
      if ((e as { name?: string }).name === 'ConditionalCheckFailedException') {
        const old = (e as { Item?: AttributeMap }).Item;
        throw new IdempotencyItemAlreadyExistsError(`Failed to put record for already existing idempotency key: ${record.idempotencyKey}`, old ? this.#record(old) : undefined);
      }
      throw e;
    }
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const names: Record<string, string> = { '#expiry': this.#o.expiryAttr, '#status': STATUS };
    const values: AttributeMap = { ':expiry': record.expiryTimestamp, ':status': record.getStatus() };
    const sets = ['#expiry = :expiry', '#status = :status'];
    if (record.responseData !== undefined) {
      sets.push('#data = :data');
      names['#data'] = DATA;
      values[':data'] = record.responseData;
    }
    if (this.isPayloadValidationEnabled()) {
      sets.push('#validation = :validation');
      names['#validation'] = VALIDATION;
      values[':validation'] = record.payloadHash;
    }
    await this.#o.table.doc.send('UpdateItem', {
      TableName: this.#o.table.tableName,
      Key: this.#key(record.idempotencyKey),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
  }

  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    await this.#o.table.doc.send('DeleteItem', { TableName: this.#o.table.tableName, Key: this.#key(record.idempotencyKey) });
  }
}
