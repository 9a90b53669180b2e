/**
 * Staff-configured enterprise identity providers in the table (`TenantIdentityProviderEntity`, item
 * `IDP#<providerName>` / `IDP`; docs/data-model.md): each write in ONE TransactWriteItems with its audit entry,
 * so the provider → tenant binding and its audit entry are stored together or not at all.
 *
 * `tenantOfProvider` is the pre token generation trigger's read (one GetItem, projected to the tenant id): the
 * trigger's role may GetItem only keys starting with `IDP#` (infra/pre-token-trigger.ts).
 */
import type { AuditEntry } from '../contract/schemas.js';
import type { IdentityProviderStore, StoredIdentityProvider } from '../domain/identity-providers.js';
import { auditPut } from './audit.js';
import type { TableRef } from './table/client.js';
import { itemOf, recordOf, TenantIdentityProviderEntity } from './entities.js';
import { keys } from './table/keys.js';
import type { Retention } from './retention.js';

/** The stored provider named `providerName`, or null. */
export async function getIdentityProvider(providerName: string, table: TableRef): Promise<StoredIdentityProvider | null> {
  const res = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.identityProvider(providerName), ConsistentRead: true });
  return res.Item ? recordOf(TenantIdentityProviderEntity, res.Item) : null;
}

/** Stores `p` (replacing the previous item) with `audit`, in one transaction. */
export async function putIdentityProviderAudited(p: StoredIdentityProvider, audit: AuditEntry, table: TableRef, retention?: Retention): Promise<void> {
  await table.doc.send('TransactWriteItems', {
    TransactItems: [{ Put: { TableName: table.tableName, Item: itemOf(TenantIdentityProviderEntity, p) } }, auditPut(audit, table, retention)],
  });
}

/** Deletes the item of `providerName` with `audit`, in one transaction. */
export async function deleteIdentityProviderAudited(providerName: string, audit: AuditEntry, table: TableRef, retention?: Retention): Promise<void> {
  await table.doc.send('TransactWriteItems', {
    TransactItems: [{ Delete: { TableName: table.tableName, Key: keys.identityProvider(providerName) } }, auditPut(audit, table, retention)],
  });
}

/**
 * The tenant a staff-configured provider is bound to, or null (no such item, or — never written, refused anyway —
 * `admin`). One eventually consistent GetItem of `tenantId` only.
 */
export async function tenantOfProvider(providerName: string, table: TableRef): Promise<string | null> {
  const res = await table.doc.send('GetItem', {
    TableName: table.tableName,
    Key: keys.identityProvider(providerName),
    ProjectionExpression: '#t',
    ExpressionAttributeNames: { '#t': 'tenantId' },
  });
  const t = (res.Item as { tenantId?: unknown } | undefined)?.tenantId;
  return typeof t === 'string' && t !== '' && t !== 'admin' ? t : null;
}

/** The provider store of the admin Lambda on `table`. */
export function identityProviderStore(table: TableRef, retention?: Retention): IdentityProviderStore {
  return {
    get: (name) => getIdentityProvider(name, table),
    put: (p, audit) => putIdentityProviderAudited(p, audit, table, retention),
    delete: (name, audit) => deleteIdentityProviderAudited(name, audit, table, retention),
  };
}
