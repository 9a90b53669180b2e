/**
 * Physical design of the single DynamoDB table: the one definition used by the CDK Data stack,
 * the local stack (dynoxide) and the tests.
 *
 * Keys (all strings):
 *  - `PK` / `SK`       — primary key; every item is addressed under its tenant: `TENANT#<tenantId>#...`.
 *  - `GSI1PK`/`GSI1SK` — index `GSI1` for tenant-scoped lists in a chosen order (e.g. incidents newest first).
 *  - `expiresAt`       — TTL attribute (epoch seconds) for time-series items.
 * The entities stored in it are declared in `lambdas/data/entities.ts` (docs/data-model.md).
 */
export const TABLE_DESIGN = {
  /** Logical suffix; the physical name is `vigia-<stage>-main`. */
  suffix: 'main',
  partitionKey: 'PK',
  sortKey: 'SK',
  gsi1: { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  ttlAttribute: 'expiresAt',
} as const;

/** Physical table name for a stage (`dev`, `prod`, `pr-42`, `local`). */
export function tableName(stage: string): string {
  return `vigia-${stage}-${TABLE_DESIGN.suffix}`;
}

/** CreateTable input for the local engine and tests (on-demand, same keys and index as in AWS). */
export function createTableInput(name: string) {
  const d = TABLE_DESIGN;
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [d.partitionKey, d.sortKey, d.gsi1.partitionKey, d.gsi1.sortKey].map((n) => ({
      AttributeName: n,
      AttributeType: 'S' as const,
    })),
    KeySchema: [
      { AttributeName: d.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: d.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: d.gsi1.indexName,
        KeySchema: [
          { AttributeName: d.gsi1.partitionKey, KeyType: 'HASH' as const },
          { AttributeName: d.gsi1.sortKey, KeyType: 'RANGE' as const },
        ],
        Projection: { ProjectionType: 'ALL' as const },
      },
    ],
  };
}
