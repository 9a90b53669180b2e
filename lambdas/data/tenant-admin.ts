/**
 * Tenant administration writes (`TenantEntity`), each in ONE TransactWriteItems with its audit entry
 * (`auditPut`), so the registry change and its audit entry are stored together or not at all.
 *
 * The registry item's `userCount` (docs/data-model.md#tenant-counts) is moved here, at write time, so the
 * staff tenant list never asks Cognito: a membership change Puts (`attribute_not_exists`) or Deletes
 * (`attribute_exists`) the member's ledger item (`TenantMemberEntity`) and ADDs ±1 to `userCount` in the
 * same transaction. A retried change finds the ledger item as it left it, its condition fails and nothing
 * is counted twice.
 */
import type { AuditEntry, Tenant } from '../contract/schemas.js';
import type { GroupMembersPort, TenantAdminPort } from '../domain/ports.js';
import { aggregatesInitialized } from './aggregates.js';
import { auditPut } from './audit.js';
import type { TableRef } from './table/client.js';
import { isConditionFailureInTransaction, setClause } from './table/dynamo-util.js';
import { queryAll } from './table/dynamo-util.js';
import { attributesOf, itemOf, TenantEntity, TenantMemberEntity } from './entities.js';
import { keys } from './table/keys.js';
import { DEFAULT_RETENTION, type Retention } from './retention.js';
import { listTenants } from './tenants.js';

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

/** The registry update that moves `userCount` by `delta` (only on a registered tenant; also in an access request's grant). */
export function userCountUpdate(table: TableRef, tenantId: string, delta: number) {
  return {
    Update: {
      TableName: table.tableName,
      Key: keys.tenant(tenantId),
      UpdateExpression: 'ADD userCount :d',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':d': delta },
    },
  };
}

/**
 * Counts `username` as a member of `tenantId` (after Cognito added it to the group): ONE TransactWriteItems
 * [Put ledger item `attribute_not_exists(PK)`, ADD `userCount` 1, the `audit` entry]. When the member is
 * counted already (a retry, a re-invitation) only `audit` is stored (one PutItem). True when it was counted now.
 * `at`: ISO-8601 UTC time of the change (stored on the ledger item).
 */
export async function addTenantMember(tenantId: string, username: string, at: string, audit: AuditEntry | null, table: TableRef, retention: Retention): Promise<boolean> {
  try {
    await table.doc.send('TransactWriteItems', {
      TransactItems: [
        { Put: { TableName: table.tableName, Item: itemOf(TenantMemberEntity, { tenantId, username, addedAt: at }), ConditionExpression: 'attribute_not_exists(PK)' } },
        userCountUpdate(table, tenantId, 1),
        ...(audit ? [auditPut(audit, table, retention)] : []),
      ],
    });
    return true;
  } catch (e) {
    if (!isConditionFailureInTransaction(e, 0)) throw e;
  }
  if (audit) await table.doc.send('TransactWriteItems', { TransactItems: [auditPut(audit, table, retention)] });
  return false;
}

/**
 * Stops counting `username` as a member of `tenantId` (after Cognito removed it from the group): ONE
 * TransactWriteItems [Delete ledger item `attribute_exists(PK)`, ADD `userCount` −1]; nothing when it is not
 * counted (a retry). True when it was uncounted now.
 */
export async function removeTenantMember(tenantId: string, username: string, table: TableRef, audit: AuditEntry | null = null, retention: Retention = DEFAULT_RETENTION): Promise<boolean> {
  try {
    await table.doc.send('TransactWriteItems', {
      TransactItems: [
        { Delete: { TableName: table.tableName, Key: keys.tenantMember(tenantId, username), ConditionExpression: 'attribute_exists(PK)' } },
        userCountUpdate(table, tenantId, -1),
        ...(audit ? [auditPut(audit, table, retention)] : []),
      ],
    });
    return true;
  } catch (e) {
    if (isConditionFailureInTransaction(e, 0)) return false;
    throw e;
  }
}

/** What `reconcileTenantMembers` found (and, unless `check`, repaired) for one tenant. */
export interface MemberDrift {
  tenantId: string;
  /** Members of the Cognito group without a ledger item. */
  missing: string[];
  /** Ledger items of users no longer in the group. */
  extra: string[];
  /** `userCount` stored on the registry item before (null: never set). */
  storedCount: number | null;
  /** Members of the Cognito group (what `userCount` must be). */
  groupCount: number;
}

/**
 * Backfill and drift check of one tenant's `userCount` (docs/data-model.md#tenant-counts): compares the members
 * of its Cognito group (`groupMembers`, usernames, from ONE paged ListUsersInGroup of the caller) with its ledger
 * (Query `PK = TENANT#<t>#MEMBERS`) and the stored count. Unless `check`, adds the missing members and removes
 * the extra ones (`addTenantMember` / `removeTenantMember`, without audit entries: not a change of membership)
 * and then SETs `userCount` to the ledger size if it still differs (a count written before the ledger existed).
 */
export async function reconcileTenantMembers(tenantId: string, groupMembers: readonly string[], table: TableRef, retention: Retention, opts: { check: boolean; now: Date }): Promise<MemberDrift> {
  const ledger = new Set(
    (await queryAll(table, { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.tenantMembersPk(tenantId) }, ProjectionExpression: 'username', ConsistentRead: true })).map((i) => String(i.username)),
  );
  const group = new Set(groupMembers);
  const reg = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.tenant(tenantId), ProjectionExpression: 'userCount', ConsistentRead: true });
  const storedCount = typeof reg.Item?.userCount === 'number' ? reg.Item.userCount : null;
  const drift: MemberDrift = { tenantId, missing: [...group].filter((u) => !ledger.has(u)).sort(), extra: [...ledger].filter((u) => !group.has(u)).sort(), storedCount, groupCount: group.size };
  if (opts.check) return drift;
  for (const u of drift.missing) await addTenantMember(tenantId, u, opts.now.toISOString(), null, table, retention);
  for (const u of drift.extra) await removeTenantMember(tenantId, u, table);
  const after = await table.doc.send('GetItem', { TableName: table.tableName, Key: keys.tenant(tenantId), ProjectionExpression: 'userCount', ConsistentRead: true });
  if (after.Item?.userCount !== group.size) {
    await table.doc.send('UpdateItem', {
      TableName: table.tableName,
      Key: keys.tenant(tenantId),
      UpdateExpression: 'SET userCount = :n',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':n': group.size },
    });
  }
  return drift;
}

/**
 * Reconciles the `userCount` of `tenants` (default: every registered one) with the groups `users` lists;
 * `check`: report only. One ListUsersInGroup walk and one ledger Query per tenant.
 */
export async function reconcileUserCounts(table: TableRef, users: GroupMembersPort, opts: { check: boolean; tenants?: string[]; now?: Date; retention?: Retention; log?: (l: string) => void }): Promise<MemberDrift[]> {
  const ids = opts.tenants ?? (await listTenants(table)).map((t) => t.id);
  const out: MemberDrift[] = [];
  for (const tenantId of ids) {
    const members = (await groupMembersOrNone(users, tenantId)).map((m) => m.username);
    const d = await reconcileTenantMembers(tenantId, members, table, opts.retention ?? DEFAULT_RETENTION, { check: opts.check, now: opts.now ?? new Date() });
    opts.log?.(`${tenantId}: ${drifted(d) ? `${d.groupCount} in the group, ${d.storedCount ?? 'no'} counted, ${d.missing.length} missing, ${d.extra.length} departed${opts.check ? '' : ' (repaired)'}` : 'no drift'}`);
    out.push(d);
  }
  return out;
}

/** The group's members; none when the group does not exist (a tenant registered without one). */
async function groupMembersOrNone(users: GroupMembersPort, group: string) {
  try {
    return await users.listGroupMembers(group);
  } catch (e) {
    if ((e as { code?: unknown }).code === 'NOT_FOUND') return [];
    throw e;
  }
}

/** True when `d` shows any drift (members missing from or departed from the ledger, or a stored count that differs). */
export const drifted = (d: MemberDrift): boolean => d.missing.length + d.extra.length > 0 || d.storedCount !== d.groupCount;

/** The tenant administration writes as a `TenantAdminPort`. */
export function tenantAdminRepository(table: TableRef, retention: Retention): TenantAdminPort {
  return {
    create: (t, a) => createTenantAudited(t, a, table, retention),
    update: (t, a) => updateTenantAudited(t, a, table, retention),
    addMember: (t, u, at, a) => addTenantMember(t, u, at, a, table, retention),
    removeMember: (t, u, a) => removeTenantMember(t, u, table, a ?? null, retention),
  };
}
