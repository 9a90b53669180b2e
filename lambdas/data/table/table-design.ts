/**
 * Physical design of the single DynamoDB table: the one definition used by the CDK Data stack,
 * the local stack (dynoxide) and the tests.
 *
 * Keys (all strings):
 *  - `PK` / `SK`       — primary key; every item is addressed under its tenant: `TENANT#<tenantId>#...`.
 *  - `GSI1PK`/`GSI1SK` — index `GSI1` for tenant-scoped lists in a chosen order (e.g. incidents newest first).
 *  - `GSI2PK`/`GSI2SK` — index `GSI2` for the few cross-tenant lists staff read: the SOC queue (`SOCQUEUE`,
 *    open incidents by SLA due time) and the audit log of all tenants (`AUDIT`), see docs/data-model.md.
 *  - `GSI3PK`/`GSI3SK` — index `GSI3`: the tenant's incidents by status (`TENANT#<t>#INCSTATUS#<status>`, newest
 *    first by `<createdAt>#<id>`), so a status filter is a Query of its partitions (docs/data-model.md#search).
 *  - `GSI4PK`/`GSI2SK` — index `GSI4`: one tenant's SOC queue (`TENANT#<t>#SOCQUEUE`, its open incidents sorted
 *    by the SOC queue's `GSI2SK`, SLA due time first), so the staff queue filtered by customer is one Query of that tenant's own
 *    partition (docs/sla.md#soc-queue).
 *  - `expiresAt`       — TTL attribute (epoch seconds) for time-series items.
 * The entities stored in it are declared in `lambdas/data/entities.ts` (docs/data-model.md).
 */
export const TABLE_DESIGN = {
  /** Logical suffix; the physical name is `vigia-<stage>-main`. */
  suffix: 'main',
  partitionKey: 'PK',
  sortKey: 'SK',
  gsi1: { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  gsi2: { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  gsi3: { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
  // Sorted by the SOC queue's own `GSI2SK` (`<slaDueAt>#<tenantId>#<id>`): the same order as the queue of
  // every tenant, and no second sort key stored on each incident (a queue page stays within 4 read units).
  gsi4: { indexName: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI2SK' },
  ttlAttribute: 'expiresAt',
} as const;

/** Physical table name for a stage (`dev`, `prod`, `pr-42`, `local`). */
export function tableName(stage: string): string {
  return `vigia-${stage}-${TABLE_DESIGN.suffix}`;
}

/** Every global secondary index of the table, in the order they were added (CloudFormation adds one per deployment). */
export const GSIS = [TABLE_DESIGN.gsi1, TABLE_DESIGN.gsi2, TABLE_DESIGN.gsi3, TABLE_DESIGN.gsi4] as const;

/** CreateTable input for the local engine and tests (on-demand, same keys and indexes as in AWS). */
export function createTableInput(name: string) {
  const d = TABLE_DESIGN;
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...new Set([d.partitionKey, d.sortKey, ...GSIS.flatMap((g) => [g.partitionKey, g.sortKey])])].map((n) => ({
      AttributeName: n,
      AttributeType: 'S' as const,
    })),
    KeySchema: [
      { AttributeName: d.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: d.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: GSIS.map(gsiInput),
  };
}

/** One global secondary index as CreateTable / UpdateTable (`Create`) spell it: string keys, projection ALL. */
export function gsiInput(g: { indexName: string; partitionKey: string; sortKey: string }) {
  return {
    IndexName: g.indexName,
    KeySchema: [
      { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  };
}
