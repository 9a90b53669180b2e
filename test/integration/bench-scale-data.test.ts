/**
 * The scale section's data generator (`scripts/bench/scale-data.ts`) at a tiny scale (×0.1: 5 devices, 50
 * incidents) against the real local engine: what it writes with BatchWriteItem is what the repository reads
 * back (lists, counts, the device roll-ups' fast path, the incident counter), the incidents obey the domain
 * rules, and the items are the same for the same `now`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { createDocumentClient, dynamoRepository, type TableRef } from '../../lambdas/data/index.js';
import { getTenant } from '../../lambdas/data/tenants.js';
import { availability30d } from '../../lambdas/domain/devices.js';
import { newIncident, slaResultOf } from '../../lambdas/domain/incidents.js';
import { searchTokens, titleMatches } from '../../lambdas/domain/search.js';
import type { Incident } from '../../lambdas/contract/schemas.js';
import { generateScaleTenant, scaleItems, scaleSpec, type GenerateStats } from '../../scripts/bench/scale-data.js';

let dynamo: RunningDynamo;
let table: TableRef;
let stats: GenerateStats;
const spec = scaleSpec(0.1);
const now = new Date('2026-06-15T10:30:00.000Z');

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, 'vigia-scale-data');
  table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }), tableName: 'vigia-scale-data' };
  stats = await generateScaleTenant(table, spec, { now, concurrency: 4 });
});
afterAll(async () => {
  table?.doc.destroy();
  await dynamo?.stop();
});

/** Every page of a paged repository list. */
async function all<T>(read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

describe('generateScaleTenant (×0.1 on dynoxide)', () => {
  it('writes the announced counts, all of them applied', () => {
    expect(spec).toMatchObject({ tenantId: 'scale-x0-1', devices: 5, incidents: 50 });
    // No counter item: the rebuild in afterGenerate sets the stats item's incidentSeq (AGGREGATES_VERSION 3).
    expect(stats.byEntity).toMatchObject({ Device: 5, Incident: 50 });
    expect(stats.byEntity.Counter).toBeUndefined();
    expect(stats.byEntity.DailyAvailability).toBeGreaterThanOrEqual(4 * 90); // one device in a hundred never reported
    expect(stats.items).toBe(Object.values(stats.byEntity).reduce((a, b) => a + b, 0));
    expect(stats.batchCalls).toBeGreaterThanOrEqual(Math.ceil(stats.items / 25));
  });

  it('registers the tenant and the repository reads back every device and incident', async () => {
    const repo = dynamoRepository(table);
    expect(await getTenant(spec.tenantId, table)).toEqual({ id: spec.tenantId, name: spec.tenantName });
    expect(await repo.devices.countDevices(spec.tenantId)).toBe(5);
    const devices = await all((cursor) => repo.devices.listDevices(spec.tenantId, { limit: 2, cursor }));
    expect(devices.map((d) => d.device.id)).toHaveLength(5);
    const incidents = await all((cursor) => repo.incidents.listIncidents(spec.tenantId, { limit: 20, cursor, from: new Date(now.getTime() - 366 * 86_400_000).toISOString(), to: now.toISOString() }));
    expect(incidents).toHaveLength(50);
    expect(new Set(incidents.map((i) => i.id)).size).toBe(50);
    const alarms = await all((cursor) => repo.devices.listAlarms(spec.tenantId, { limit: 50, cursor }));
    expect(alarms).toHaveLength(stats.byEntity.DeviceAlarm!);
  });

  it('gives each device the roll-ups the from-scratch figures would give (the device list fast path)', async () => {
    const repo = dynamoRepository(table);
    const { items } = await repo.devices.listDevices(spec.tenantId, { limit: 10 });
    for (const listed of items) {
      const { days, openAlarms } = await repo.devices.deviceStats(spec.tenantId, listed.device.id, '2026-05-17');
      expect(listed.openAlarms).toBe(openAlarms);
      expect(listed.availability?.asOf).toBe('2026-06-15');
      expect(listed.availability?.pct30d[0]).toBe(availability30d(days, now));
    }
  });

  it('writes incidents that follow the domain rules, with their history', async () => {
    const repo = dynamoRepository(table);
    const incidents = await all((cursor) => repo.incidents.listIncidents(spec.tenantId, { limit: 50, cursor, from: '2025-01-01T00:00:00.000Z' }));
    for (const listed of incidents) {
      const d = (await repo.incidents.getIncidentDetail(spec.tenantId, listed.id))!;
      expect(d.version).toBe(1 + d.history.length);
      expect(d.createdAt <= d.updatedAt && d.updatedAt <= now.toISOString()).toBe(true);
      const leftNew = d.history.find((h) => h.changes.some((c) => c.field === 'status' && c.from === 'new'));
      expect(d.firstAcknowledgedAt).toBe(leftNew?.at ?? null);
      expect(d.status === 'new').toBe(d.history.length === 0);
      expect(d.resolvedAt !== null).toBe(d.status === 'resolved' || d.status === 'closed');
      expect(d.closedAt !== null).toBe(d.status === 'closed');
      expect(d.slaResult).toBe(d.closedAt ? slaResultOf(d, d.closedAt) : null);
      const last = d.history.filter((h) => h.changes.some((c) => c.field === 'status')).at(-1);
      expect(last?.changes.find((c) => c.field === 'status')?.to ?? 'new').toBe(d.status);
    }
    const statuses = new Set(incidents.map((i) => i.status));
    expect(statuses.has('closed')).toBe(true);
    // The search indexes hold them as the repository's writes would (docs/data-model.md#search).
    for (const status of statuses) {
      const byStatus = await all((cursor) => repo.incidents.listIncidents(spec.tenantId, { limit: 7, cursor, status: [status] }));
      expect(byStatus.map((i) => i.id)).toEqual(incidents.filter((i) => i.status === status).map((i) => i.id));
    }
    for (const i of incidents.slice(0, 10)) {
      const found = await all((cursor) => repo.incidents.listIncidents(spec.tenantId, { limit: 50, cursor, q: i.title }));
      expect(found.map((f) => f.id)).toContain(i.id);
      expect(found.every((f) => titleMatches(f.title, searchTokens(i.title)))).toBe(true);
    }
  });

  it("raises the incident counter (the stats item's incidentSeq, set by the rebuild) past the generated ids", async () => {
    const repo = dynamoRepository(table);
    const made: Incident = await repo.incidents.createIncident(spec.tenantId, (seq) => newIncident(spec.tenantId, seq, { title: 't', description: 'd', severity: 'low', category: 'general' }, 'x', now.toISOString()));
    expect(made.id).toBe('INC-000051');
  });

  it('is deterministic for the same now', () => {
    const a = [...scaleItems(spec, now)];
    const b = [...scaleItems(spec, now)];
    expect(a).toEqual(b);
    expect(a.length).toBe(stats.items);
  });

  it('writes each key once (BatchWriteItem refuses a batch with two requests for one key), search entries included', () => {
    for (const factor of [0.1, 1] as const) {
      const items = [...scaleItems(scaleSpec(factor), now)];
      const keys = new Set(items.map((i) => `${String(i.PK)}|${String(i.SK)}`));
      expect(keys.size, `×${factor}`).toBe(items.length);
      for (const entity of ['AlarmToken', 'CommentToken', 'Office365User']) expect(items.some((i) => i.entity === entity), `${entity} at ×${factor}`).toBe(true);
    }
  });
});
