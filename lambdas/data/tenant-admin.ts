/**
 * Tenant administration writes (`TenantEntity`), each in ONE TransactWriteItems with its audit entry
 * (`auditPut`), so the registry change and its audit entry are stored together or not at all.
 */
import type { AuditEntry, Tenant } from '../contract/schemas.js';
import type { TenantAdminPort } from '../domain/ports.js';
import { aggregatesInitialized } from './aggregates.js';
import { auditPut } from './audit.js';
import type { TableRef } from './client.js';
import { isConditionFailureInTransaction, setClause } from './dynamo-util.js';
import { attributesOf, itemOf, TenantEntity } from './entities.js';
import { keys } from './keys.js';
import type { Retention } from './retention.js';

/** Registers `tenant` unless its id exists (false then, nothing written), with `audit`. */
export async function createTenantAudited(tenant: Tenant, audit: AuditEntry, table: TableRef, retention: Retention): Promise<boolean> {
  try {
    await table.doc.send('TransactWriteItems', {
      TransactItems: [
        { Put: { TableName: table.tableName, Item: itemOf(TenantEntity, tenant), ConditionExpression: 'attribute_not_exists(PK)' } },
        auditPut(audit, table, retention),
        // A new tenant's aggregates start complete (no items yet): docs/data-model.md#aggregates.
        aggregatesInitialized(table, tenant.id),
      ],
    });
    return true;
  } catch (e) {
    if (isConditionFailureInTransaction(e, 0)) return false;
    throw e;
  }
}

/**
 * Stores the declared attributes of `tenant` on its existing item (an update: the collector grants stay;
 * attributes absent from `tenant` are removed), with `audit`. False when the tenant is not registered.
 */
export async function updateTenantAudited(tenant: Tenant, audit: AuditEntry, table: TableRef, retention: Retention): Promise<boolean> {
  const attrs = attributesOf(TenantEntity, tenant);
  const { set, names, values } = setClause(attrs);
  const removed = TenantEntity.attributes.filter((a) => attrs[a] === undefined);
  removed.forEach((a, i) => (names[`#r${i}`] = a));
  const update = `${set}${removed.length ? ` REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}` : ''}`;
  try {
    await table.doc.send('TransactWriteItems', {
      TransactItems: [
        {
          Update: {
            TableName: table.tableName,
            Key: keys.tenant(tenant.id),
            UpdateExpression: update,
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
        auditPut(audit, table, retention),
      ],
    });
    return true;
  } catch (e) {
    if (isConditionFailureInTransaction(e, 0)) return false;
    throw e;
  }
}

/** The tenant administration writes as a `TenantAdminPort`. */
export function tenantAdminRepository(table: TableRef, retention: Retention): TenantAdminPort {
  return {
    create: (t, a) => createTenantAudited(t, a, table, retention),
    update: (t, a) => updateTenantAudited(t, a, table, retention),
  };
}
