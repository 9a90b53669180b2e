/**
 * The incident list's index reads (docs/data-model.md#search) over dynoxide: for random filters — statuses,
 * severities, search words (any case, accents, stop words), `from`/`to`, order and page size — following
 * `nextCursor` until null returns exactly, and in order, what a reference filter over every stored incident
 * returns (`titleMatches` and the plain field comparisons), after creates, title changes and status changes,
 * with an incident a year old among them. Also: device names by prefix (case and accents ignored), the
 * position cursor refused outside the tenant's range, and the upgrade of items stored before the indexes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { createDocumentClient, dynamoRepository, type TableRef } from '../../lambdas/data/index.js';
import { sdkDocumentClient } from '../../lambdas/data/table/sdk-client.js';
import { putAlarm, putDevice } from '../../lambdas/data/devices.js';
import { putTenant } from '../../lambdas/data/tenants.js';
import { upgradeSearchIndex } from '../../lambdas/data/migrations.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { listIncidents as listIncidentsUseCase } from '../../lambdas/domain/incidents.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import { searchTokens, titleMatches } from '../../lambdas/domain/search.js';
import { INCIDENT_STATUSES, SEVERITIES, type DeviceAlarm, type Incident, type IncidentStatus, type Severity } from '../../lambdas/contract/schemas.js';
import type { IncidentListOptions } from '../../lambdas/domain/ports.js';

let dynamo: RunningDynamo;
let table: TableRef;
let sdkTable: TableRef;
const credentials = { accessKeyId: 'l', secretAccessKey: 'l' };
const T = 'acme';
const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const DAY = 86_400_000;

/** Title words: accents, case and stop words mixed in (the index folds them). */
const WORDS = ['Phishing', 'VPN', 'caída', 'Córdoba', 'servidor', 'correo', 'fallo', 'acceso', 'sospechoso', 'FW-MAD-00001', 'impresora', 'lentitud'];
const STOP = ['de', 'en', 'la', 'the'];

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
const rnd = prng(7);
const pick = <X,>(xs: readonly X[]): X => xs[Math.floor(rnd() * xs.length)]!;
const titleOf = () => Array.from({ length: 2 + Math.floor(rnd() * 3) }, (_, k) => (k % 2 ? pick(STOP) + ' ' : '') + pick(WORDS)).join(' ');

/** The reference: every stored incident (GSI1, unfiltered, paged) filtered in memory. */
async function allIncidents(): Promise<Incident[]> {
  const repo = dynamoRepository(table).incidents;
  const out: Incident[] = [];
  let cursor: string | undefined;
  do {
    const page = await repo.listIncidents(T, { limit: 100, cursor });
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

function reference(all: Incident[], o: IncidentListOptions): string[] {
  const qt = o.q ? searchTokens(o.q) : undefined;
  const key = (i: Incident) => `${i.createdAt}#${i.id}`;
  return all
    .filter(
      (i) =>
        (!o.status?.length || o.status.includes(i.status)) &&
        (!o.severity?.length || o.severity.includes(i.severity)) &&
        (!o.from || i.createdAt >= o.from) &&
        (!o.to || i.createdAt <= o.to) &&
        (qt === undefined || titleMatches(i.title, qt)),
    )
    .sort((a, b) => (key(a) < key(b) ? -1 : 1) * (o.sort === 'oldest' ? 1 : -1))
    .map((i) => i.id);
}

/** Follows `nextCursor` until null (at most 400 pages). */
async function follow(t: TableRef, o: IncidentListOptions): Promise<{ ids: string[]; pages: number }> {
  const repo = dynamoRepository(t).incidents;
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await repo.listIncidents(T, { ...o, cursor });
    expect(page.items.length).toBeLessThanOrEqual(o.limit);
    ids.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor ?? undefined;
    pages++;
  } while (cursor && pages < 400);
  return { ids, pages };
}

let oldIncident: Incident;

beforeAll(async () => {
  dynamo = await startDynamo({ port: 0 });
  await ensureTable(dynamo.endpoint, 'vigia-search-main');
  table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials }), tableName: 'vigia-search-main' };
  sdkTable = { doc: sdkDocumentClient(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials })), tableName: 'vigia-search-main' };
  await putTenant({ id: T, name: 'Acme' }, table);
  const repo = dynamoRepository(table).incidents;
  // A year-old incident with a word no other title has, then 70 more over the last 400 days.
  oldIncident = await repo.createIncident(T, (seq) =>
    newIncident(T, seq, { title: 'Certificado caducado en Almería', description: 'x', severity: 'low', category: 'general' }, 'r', new Date(NOW - 366 * DAY).toISOString()),
  );
  for (let n = 0; n < 70; n++) {
    const at = new Date(NOW - Math.floor(rnd() * 400 * DAY)).toISOString();
    await repo.createIncident(T, (seq) => newIncident(T, seq, { title: titleOf(), description: 'x', severity: pick(SEVERITIES), category: 'general' }, 'r', at));
  }
  // Another tenant with the same words: never returned for acme.
  for (let n = 0; n < 5; n++) {
    await repo.createIncident('globex', (seq) => newIncident('globex', seq, { title: 'Phishing VPN servidor', description: 'x', severity: 'high', category: 'general' }, 'r', new Date(NOW - n * DAY).toISOString()));
  }
  // Status and title changes (the status partition moves, old words leave the index, new words enter it).
  for (let n = 0; n < 60; n++) {
    const id = `INC-${String(2 + Math.floor(rnd() * 70)).padStart(6, '0')}`;
    const cur = (await repo.getIncident(T, id))!;
    const status: IncidentStatus = pick(INCIDENT_STATUSES);
    const title = rnd() < 0.4 ? titleOf() : cur.title;
    const next: Incident = { ...cur, status, title, version: cur.version + 1, updatedAt: new Date(NOW).toISOString() };
    const change = { version: next.version, at: next.updatedAt, by: 'test', changes: [{ field: 'status', from: cur.status, to: status }] };
    expect(await repo.saveUpdate(T, next, cur, change, null)).toBe(true);
  }
}, 120_000);
afterAll(async () => {
  table?.doc.destroy();
  sdkTable?.doc.destroy();
  await dynamo?.stop();
});

const isoArb = fc.integer({ min: -420, max: 1 }).map((d) => new Date(NOW + d * DAY).toISOString());
const optsArb: fc.Arbitrary<IncidentListOptions> = fc.record(
  {
    status: fc.subarray([...INCIDENT_STATUSES], { minLength: 1 }),
    severity: fc.subarray([...SEVERITIES] as Severity[], { minLength: 1 }),
    q: fc
      .tuple(fc.subarray(WORDS, { minLength: 1, maxLength: 2 }), fc.boolean())
      .map(([ws, upper]) => ws.map((w) => (upper ? w.toUpperCase() : w.normalize('NFD').replace(/\p{Diacritic}/gu, ''))).join(' de ')),
    from: isoArb,
    to: isoArb,
    sort: fc.constantFrom('newest' as const, 'oldest' as const),
    limit: fc.integer({ min: 1, max: 7 }),
  },
  { requiredKeys: ['limit'] },
).filter((o) => !o.from || !o.to || o.from <= o.to);

describe('incident filters and search by index', () => {
  it('follow the cursor to exactly the reference filter over every item (property)', async () => {
    const all = await allIncidents();
    expect(all.length).toBe(71);
    await fc.assert(
      fc.asyncProperty(optsArb, async (o) => {
        const { ids } = await follow(table, o);
        expect(ids).toEqual(reference(all, o));
      }),
      { numRuns: Number(process.env.FULL_FUZZ) ? 300 : 60 },
    );
  }, 120_000);

  it('finds the year-old incident by a word of its title (accents, case ignored) and by status, through both clients', async () => {
    for (const t of [table, sdkTable]) {
      expect((await follow(t, { q: 'ALMERIA certificado', limit: 20 })).ids).toEqual([oldIncident.id]);
      const byStatus = await follow(t, { status: ['new'], severity: ['low'], limit: 5 });
      expect(byStatus.ids).toContain(oldIncident.id);
    }
    // Stop words alone match nothing; the exact id is a GetItem (domain use case).
    expect((await follow(table, { q: 'de la', limit: 20 })).ids).toEqual([]);
    const port = dynamoRepository(table).incidents;
    expect((await listIncidentsUseCase(port, T, { q: oldIncident.id.toLowerCase(), limit: 20 })).items.map((i) => i.id)).toEqual([oldIncident.id]);
  });

  it('refuses a position cursor of another shape or outside from/to', async () => {
    const repo = dynamoRepository(table).incidents;
    const first = await repo.listIncidents(T, { status: ['closed', 'new'], limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    await expect(repo.listIncidents(T, { status: ['closed'], limit: 1, cursor: first.nextCursor!, from: new Date(NOW).toISOString() })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const forged = Buffer.from(JSON.stringify({ p: 'x#TENANT#globex#INCIDENT#INC-000001' })).toString('base64url');
    await expect(repo.listIncidents(T, { q: 'phishing', limit: 1, cursor: forged })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('device names by prefix', () => {
  it('is a range of the folded-name index: case and accents ignored, cursor followed', async () => {
    const names = ['Córdoba-FW-01', 'cordoba-sw-02', 'CORDOBA-AP-03', 'Cádiz-FW-01', 'Madrid-FW-01'];
    for (const [k, name] of names.entries()) {
      await putDevice({ tenantId: T, id: `d${k}`, name, type: 'firewall', site: 's', ipAddress: '10.0.0.1', vendor: 'v', model: 'm' }, table);
    }
    const repo = dynamoRepository(table).devices;
    const found: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await repo.listDevices(T, { limit: 1, cursor, prefix: 'CORDOBA' });
      found.push(...page.items.map((d) => d.device.name));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(found).toEqual(['CORDOBA-AP-03', 'Córdoba-FW-01', 'cordoba-sw-02']);
    expect((await repo.listDevices(T, { limit: 10, prefix: 'cá' })).items.map((d) => d.device.name)).toEqual(['Cádiz-FW-01']);
  });
});

describe("one device's alarms", () => {
  it("are read from the device's partition: the same pages as the tenant's alarm list filtered to it", async () => {
    const repo = dynamoRepository(table).devices;
    const states = ['active', 'acknowledged', 'cleared'] as const;
    for (let k = 0; k < 40; k++) {
      const state = pick(states);
      const raisedAt = new Date(NOW - Math.floor(rnd() * 80 * DAY)).toISOString();
      await putAlarm(
        { id: `a${k}`, tenantId: T, deviceId: `d${k % 3}`, raisedAt, severity: pick(SEVERITIES), state, title: 'CPU alta', acknowledgedAt: state === 'active' ? null : raisedAt, acknowledgedBy: state === 'active' ? null : 'x', clearedAt: state === 'cleared' ? raisedAt : null },
        table,
      );
    }
    const all: DeviceAlarm[] = [];
    let cursor: string | undefined;
    do {
      const page = await repo.listAlarms(T, { limit: 100, cursor });
      all.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    for (const o of [{ deviceId: 'd1' }, { deviceId: 'd2', state: ['active', 'acknowledged'] as const }, { deviceId: 'd0', severity: ['high'], from: new Date(NOW - 40 * DAY).toISOString() }]) {
      const got: string[] = [];
      let c: string | undefined;
      do {
        const page = await repo.listAlarms(T, { ...o, state: o.state ? [...o.state] : undefined, limit: 2, cursor: c });
        got.push(...page.items.map((a) => a.id));
        c = page.nextCursor ?? undefined;
      } while (c);
      const want = all.filter((a) => a.deviceId === o.deviceId && (!o.state || (o.state as readonly string[]).includes(a.state)) && (!o.severity || o.severity.includes(a.severity)) && (!o.from || a.raisedAt >= o.from));
      expect(got).toEqual(want.map((a) => a.id));
      expect(got.length).toBeGreaterThan(0);
    }
    const first = await repo.listAlarms(T, { deviceId: 'd1', limit: 1 });
    await expect(repo.listAlarms(T, { deviceId: 'd2', limit: 1, cursor: first.nextCursor! })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('upgrade of data stored before the indexes', () => {
  it('indexes old incidents and re-keys old devices, once', async () => {
    const old = newIncident('legacy', 1, { title: 'Fallo del Servidor de correo', description: 'x', severity: 'high', category: 'general' }, 'r', '2025-02-01T00:00:00.000Z');
    await putTenant({ id: 'legacy', name: 'Legacy' }, table);
    // As an earlier version stored them: no GSI3 keys, no word items, `searchText`, the raw name as sort key.
    await table.doc.send('PutItem', { TableName: table.tableName, Item: { ...keys.incident('legacy', old.id), ...keys.incidentGsi1('legacy', old.id, old.createdAt), entity: 'Incident', ...old, searchText: 'x' } });
    await table.doc.send('PutItem', { TableName: table.tableName, Item: { ...keys.device('legacy', 'd1'), GSI1PK: keys.devicesGsi1Pk('legacy'), GSI1SK: 'Sevilla-FW#d1', entity: 'Device', id: 'd1', tenantId: 'legacy', name: 'Sevilla-FW', type: 'firewall', site: 's', ipAddress: '10.0.0.1', vendor: 'v', model: 'm' } });
    const repo = dynamoRepository(table);
    expect((await repo.incidents.listIncidents('legacy', { q: 'servidor', limit: 10 })).items).toEqual([]);
    const first = await upgradeSearchIndex(table);
    expect(first).toMatchObject({ incidents: 1, devices: 1 });
    expect((await repo.incidents.listIncidents('legacy', { q: 'SERVIDOR correo', limit: 10 })).items.map((i) => i.id)).toEqual([old.id]);
    expect((await repo.incidents.listIncidents('legacy', { status: ['new'], limit: 10 })).items.map((i) => i.id)).toEqual([old.id]);
    expect((await repo.devices.listDevices('legacy', { limit: 10, prefix: 'sevi' })).items.map((d) => d.device.id)).toEqual(['d1']);
    expect(await upgradeSearchIndex(table)).toEqual({ incidents: 0, devices: 0 });
  });
});
