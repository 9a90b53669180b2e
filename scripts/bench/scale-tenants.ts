/**
 * The scale section's ×1,000-tenants point (docs/benchmarks.md#scale, issue 28 point 5): what the staff views
 * cost when the platform has 1,000 small tenants beside the demo ones.
 *
 * The tenants are written directly with BatchWriteItem through the data layer's declarations (`itemOf`), not
 * via the API, so 1,000 tenants take seconds: per tenant its registry item with `userCount` (as the
 * administration writes keep it, docs/data-model.md#tenant-counts), its stats item with built aggregates
 * (`aggVersion`, `devices`), one open incident (the SOC queue) and one audit entry (the all-tenants log).
 *
 * Each staff view (`TENANT_VIEWS`) is then called once as staff through the local gateway, with the capacity
 * capture of `api.ts` on the handlers' document client (DynamoDB requests, RCU) and a subscriber on the
 * aws-lite call channel (`AWS_CALL_CHANNEL`, lambdas/data/table/aws-lite.ts) counting the handlers' Cognito calls —
 * the in-process handlers' user pool port is aws-lite, so every `cognito-idp` request they send is seen there.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AuditEntry, Incident, Tenant } from '../../lambdas/contract/schemas.js';
import { AGGREGATE_ENTITIES } from '../../lambdas/data/aggregates.js';
import { AWS_CALL_CHANNEL, type AwsCallMessage } from '../../lambdas/data/table/aws-lite.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { AuditEntity, IncidentEntity, itemOf, TenantEntity } from '../../lambdas/data/entities.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { DEFAULT_RETENTION } from '../../lambdas/data/retention.js';
import { AGGREGATES_VERSION } from '../../lambdas/domain/aggregates.js';
import { formatIncidentId, slaDueAt } from '../../lambdas/domain/incidents.js';
import { DEMO_USERS } from '../local/demo-data.js';
import { localTable } from '../local/config.js';
import { freePort, startLocalStack } from '../local/stack.js';
import { ADMIN_GROUP } from '../../lambdas/contract/routes.js';
import { idTokenFor, installCapacityCapture, takeCaptured } from './api.js';
import { summarize } from './report.js';
import { batchWriteAll } from './scale-data.js';
import { lastDays } from './scale-pages.js';
import type { ScaleTenantsPoint, ScaleTenantView } from './types.js';

/** Tenants of the point. */
export const TENANTS_POINT = 1000;

/** Tenant id `i` of the point: `fleet-0001`…, sorted after the demo tenants. */
export const pointTenantId = (i: number): string => `fleet-${String(i + 1).padStart(4, '0')}`;

/** The staff views measured, each ONE call as the portal makes it (first page). */
export const TENANT_VIEWS: readonly { id: string; path: string; query: (now: number) => Record<string, string> }[] = [
  { id: 'tenant list (first page)', path: '/admin/tenants', query: () => ({ limit: '50' }) },
  { id: 'analytics 30d', path: '/analytics', query: (now) => lastDays(30)({ now, tenantId: '', deviceId: '', deviceName: '', searchText: '' }) },
  { id: 'SOC queue (first page)', path: '/soc/queue', query: () => ({ limit: '50' }) },
  { id: 'audit, all tenants (first page)', path: '/audit', query: () => ({ limit: '50' }) },
];

/** The items of `n` small tenants at `now` (module doc), in write order. */
export function* tenantsPointItems(n: number, now: Date): Generator<Record<string, unknown>> {
  const at = now.toISOString();
  for (let i = 0; i < n; i++) {
    const id = pointTenantId(i);
    const tenant: Tenant = { id, name: `Cliente ${i + 1} S.L.` };
    yield { ...itemOf(TenantEntity, tenant), userCount: 1 + (i % 5) };
    yield { ...keys.stats(id), entity: AGGREGATE_ENTITIES.stats, aggVersion: AGGREGATES_VERSION, devices: 1 + (i % 7) };
    const createdAt = new Date(now.getTime() - (i % 600) * 60_000).toISOString();
    const severity = (['critical', 'high', 'medium', 'low'] as const)[i % 4]!;
    const incident: Incident = {
      id: formatIncidentId(1), tenantId: id, title: `Alerta de prueba ${i + 1}`, description: 'Incidente del punto de 1.000 clientes.', severity, status: 'new',
      category: 'general', source: 'portal', reporter: `cliente@${id}.example`, assignee: null, createdAt, updatedAt: createdAt,
      resolvedAt: null, slaDueAt: slaDueAt(createdAt, severity), version: 1, slaTargets: null, triagedAt: null, firstAcknowledgedAt: null, closureRequested: false, closedAt: null, slaResult: null,
    };
    yield itemOf(IncidentEntity, incident);
    yield itemOf(
      AuditEntity,
      { id: `01BENCH${String(i).padStart(19, '0')}`, tenantId: id, at, actor: { sub: 'bench' }, action: 'tenant.create', target: { type: 'tenant', id }, after: { ...tenant }, requestId: `bench-${i}`, sourceIp: '127.0.0.1' } satisfies AuditEntry,
      DEFAULT_RETENTION,
    );
  }
}

/** Writes the point's tenants (BatchWriteItem, `concurrency` at once); returns the items written. */
export async function writeTenantsPoint(table: TableRef, n: number, now: Date, concurrency = 8): Promise<number> {
  let written = 0;
  await batchWriteAll(table, tenantsPointItems(n, now), concurrency, (k) => (written += k));
  return written;
}

/** The ×1,000-tenants point: a fresh stack, `n` tenants written, each staff view measured once (module doc). */
export async function measureTenantsPoint(log: (l: string) => void, n = TENANTS_POINT): Promise<ScaleTenantsPoint> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-tenants-'));
  const stack = await startLocalStack({ dataDir, persist: false, serveWeb: false, buildPortal: 'never', collector: false, logLevel: 'ERROR', ports: { dynamodb: 0, cognito: 0, cognitoInternal: 0, api: 0, web: await freePort() } });
  const table = localTable(stack.urls.dynamodb, stack.tableName);
  let cognitoCalls: string[] = [];
  const onCall = (m: unknown) => {
    const msg = m as AwsCallMessage;
    if (msg.service === 'cognito-idp') cognitoCalls.push(String(msg.target ?? '').split('.').pop() ?? '');
  };
  try {
    const now = new Date();
    const t0 = performance.now();
    const items = await writeTenantsPoint(table, n, now);
    const generateMs = Math.round(performance.now() - t0);
    log(`scale ${n} tenants: ${items.toLocaleString('en')} items in ${(generateMs / 1000).toFixed(1)} s`);
    const admin = DEMO_USERS.find((u) => u.groups.includes(ADMIN_GROUP))!;
    const token = await idTokenFor(stack, admin.email, admin.password);
    const uninstall = installCapacityCapture(stack.repositoryTable);
    subscribe(AWS_CALL_CHANNEL, onCall);
    try {
      const views: ScaleTenantView[] = [];
      for (const v of TENANT_VIEWS) {
        const url = `${stack.urls.api}${v.path}?${new URLSearchParams(v.query(now.getTime())).toString()}`;
        // Warm: the handler's container and its registry cache (as the scale section's `warm`).
        await fetch(url, { headers: { Authorization: token } }).then((r) => r.text());
        takeCaptured();
        cognitoCalls = [];
        const t = performance.now();
        const res = await fetch(url, { headers: { Authorization: token } });
        const text = await res.text();
        const wallMs = Math.round(performance.now() - t);
        const ops = takeCaptured();
        const body = res.status === 200 ? (JSON.parse(text) as { items?: unknown[]; tenants?: unknown[]; nextCursor?: string | null }) : {};
        const view: ScaleTenantView = {
          id: v.id,
          path: v.path,
          status: res.status,
          requests: ops.length,
          readUnits: Math.round(ops.reduce((a, o) => a + o.readUnits, 0) * 100) / 100,
          operations: summarize(ops.map((o) => o.commandName)),
          cognitoCalls: cognitoCalls.length,
          items: (body.items ?? body.tenants ?? []).length,
          hasMore: typeof body.nextCursor === 'string',
          wallMs,
          responseBytes: Buffer.byteLength(text),
        };
        log(`scale ${n} tenants: ${v.id}: HTTP ${view.status}, ${view.requests} requests (${view.operations}), ${view.readUnits} RCU, ${view.cognitoCalls} Cognito calls, ${view.items} items${view.hasMore ? ' (more)' : ''}, ${wallMs} ms`);
        views.push(view);
      }
      return { tenants: n, items, generateMs, views };
    } finally {
      unsubscribe(AWS_CALL_CHANNEL, onCall);
      uninstall();
    }
  } finally {
    table.doc.destroy();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
