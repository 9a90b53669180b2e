/**
 * The audit log's rules (docs/api.md#audit-log): how an entry is built from a request, which fields it
 * records, and who may read which entries. Storage: `AuditPort` (`lambdas/data/audit.ts`, which also
 * builds the TransactWriteItems action of an entry written with its change).
 */
import { randomUUID } from 'node:crypto';
import { csvText } from '../contract/csv.js';
import type { AuditAction, AuditEntry, ListAuditQuery, Page } from '../contract/schemas.js';
import { ApiError } from './errors.js';
import type { Identity } from './identity.js';
import type { AuditPort } from './ports.js';

/** Tenant id under which audit entries of staff-wide actions (staff grants) are stored; no customer reads it. */
export const STAFF_AUDIT_TENANT = '_staff';

/** What the caller of `newAuditEntry` gives: everything but the generated `id` and, optionally, `at`. */
export type AuditInput = Omit<AuditEntry, 'id' | 'at'> & { at?: string | undefined };

/** A complete entry with a fresh id (UUID v4) and `at` (now, ISO-8601 UTC, unless given). */
export function newAuditEntry(input: AuditInput, now: Date = new Date()): AuditEntry {
  const { at, ...rest } = input;
  return { ...rest, id: randomUUID(), at: at ?? now.toISOString() };
}

/**
 * The fields of `after` that differ from `before` (JSON comparison), as `{ before, after }` holding only
 * those fields (a field new in `after` has no `before` value); both absent when nothing changed.
 */
export function changedFields(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
): { before?: Record<string, unknown>; after?: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(after)) {
    if (v === undefined) continue;
    const old = before?.[k];
    if (JSON.stringify(old) === JSON.stringify(v)) continue;
    if (old !== undefined) b[k] = old;
    a[k] = v;
  }
  return { ...(Object.keys(b).length ? { before: b } : {}), ...(Object.keys(a).length ? { after: a } : {}) };
}

/** The request facts every entry records. */
export interface AuditRequest {
  identity: Identity;
  requestId: string;
  sourceIp: string;
  now: Date;
}

/**
 * The entry of `action` on `target` in `tenantId` by the caller of `req` (actor: `sub`, and the e-mail only
 * when verified), with the changed fields.
 */
export function auditEntryFor(
  req: AuditRequest,
  tenantId: string,
  action: AuditAction,
  target: { type: string; id: string; name?: string | undefined },
  change: { before?: Record<string, unknown> | undefined; after?: Record<string, unknown> | undefined } = {},
): AuditEntry {
  return newAuditEntry(
    {
      tenantId,
      actor: { sub: req.identity.sub, ...(req.identity.email ? { email: req.identity.email } : {}) },
      action,
      target: { type: target.type, id: target.id, ...(target.name ? { name: target.name } : {}) },
      ...(change.before ? { before: change.before } : {}),
      ...(change.after ? { after: change.after } : {}),
      requestId: req.requestId,
      sourceIp: req.sourceIp,
    },
    req.now,
  );
}

type AuditQuery = ListAuditQuery & { limit: number; format: 'json' | 'csv' };

/** Header of the audit CSV. */
const AUDIT_CSV_HEADER = ['at', 'tenantId', 'actorSub', 'actorEmail', 'action', 'targetType', 'targetId', 'before', 'after', 'requestId', 'sourceIp'];

/** Entries → CSV text (before/after as JSON text). */
export function auditToCsv(items: readonly AuditEntry[]): string {
  return csvText(
    [
      AUDIT_CSV_HEADER,
      ...items.map((e) => [
        e.at,
        e.tenantId,
        e.actor.sub,
        e.actor.email,
        e.action,
        e.target.type,
        e.target.id,
        e.before ? JSON.stringify(e.before) : '',
        e.after ? JSON.stringify(e.after) : '',
        e.requestId,
        e.sourceIp,
      ]),
    ],
    { trailingNewline: true },
  );
}

/**
 * `GET /audit`: customers read one of their tenants (`tenant`, or their only tenant; another tenant → 403,
 * several and none named → 400 TENANT_REQUIRED); staff read one tenant or, without `tenant`, all. With
 * `format=csv` the page is a CSV download built by `download(filename, text)` (the HTTP layer's
 * `CsvDownload`; passed in so this module does not depend on the reports module), and the export itself is
 * audited (`export.audit`).
 * @throws ApiError FORBIDDEN, TENANT_REQUIRED, VALIDATION_FAILED (cursor)
 */
export async function listAuditLog<D>(
  port: AuditPort,
  q: AuditQuery,
  req: AuditRequest,
  tenantExists: (id: string) => Promise<boolean>,
  download: (filename: string, text: string) => D,
): Promise<Page<AuditEntry> | D> {
  const { identity } = req;
  let tenant: string | undefined = q.tenant;
  if (!identity.isAdmin) {
    if (identity.groups.length === 0) throw new ApiError('FORBIDDEN', 'the user belongs to no group');
    const own: string[] = [];
    for (const t of identity.tenants) if (await tenantExists(t)) own.push(t);
    if (tenant !== undefined && !own.includes(tenant)) throw new ApiError('FORBIDDEN', 'the tenant is not one of the caller\u2019s tenants');
    if (tenant === undefined) {
      if (own.length === 1) tenant = own[0];
      else if (own.length === 0) throw new ApiError('FORBIDDEN', 'the user belongs to no tenant');
      else throw new ApiError('TENANT_REQUIRED', 'choose a tenant with the `tenant` query parameter', { tenants: own });
    }
  }
  const opts = { limit: q.limit, cursor: q.cursor, from: q.from, to: q.to, action: q.action, actor: q.actor };
  const page = tenant === undefined ? await port.listAll(opts) : await port.listTenant(tenant, opts);
  if (q.format !== 'csv') return page;
  await port.put(auditEntryFor(req, tenant ?? STAFF_AUDIT_TENANT, 'export.audit', { type: 'audit', id: tenant ?? '*' }, { after: { ...q, format: 'csv' } }));
  return download(`vigia-audit-${tenant ?? 'all'}-${req.now.toISOString().slice(0, 10)}.csv`, auditToCsv(page.items));
}
