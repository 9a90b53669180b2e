/**
 * The scale section's data generator (docs/benchmarks.md#scale): a large tenant written beside the demo
 * data on a local stack, at a scale factor of the demo-sized customer —
 *
 * | factor | devices | incidents (365 days) | daily availability items (90 days) |
 * |---|---:|---:|---:|
 * | ×1 | 50 | 500 | 4,500 |
 * | ×10 | 500 | 5,000 | 45,000 |
 * | ×100 | 5,000 | 50,000 | 450,000 |
 *
 * and in proportion device alarms (≈ 2 per device over 90 days, open ones on offline/degraded devices),
 * Office 365 alerts (1 per 2 devices, 365 days) and audit events (5 per device, 90 days), recommendations
 * (1 per 10 devices), audit entries (one per incident created, one per acknowledged alarm) and the activity
 * feed's events of the last 30 days (every incident created, critical/high alarms raised).
 *
 * **The ×1 tenant is a busy 50-device customer** (`ACTIVITY_FLOOR`): its devices are 50, but its event
 * volumes — incidents, alarms, Office 365 alerts and events, recommendations, activity — are those of the
 * ×10 tenant (5,000 incidents a year, ≈ 14 a day; ≈ 11 device alarms a day), in the same proportions (status,
 * severity, open/cleared mixes). That is what fills every page and aggregate item the portal reads at ×1 as
 * at ×100 (a page of 20 incidents of each open status, of open alarms, of active Office 365 alerts, of
 * recommendations, of activity events; incidents and alarms on every day and in most hours), so the growth
 * budget (×100 ≤ 1.2 × ×1, issue 14) measures how a cost grows with the tenant and not how full its pages
 * are (docs/benchmarks.md#growth-budgets). Device names start with the site (`MAD-FW-00001`) and a tenant
 * has a site per 25 devices (2–10), so a name prefix (the site) also fills a page of 20 at ×1.
 *
 * Incidents follow the domain rules of `lambdas/domain/incidents.ts`: each has a timeline drawn first
 * (first staff response, optional triage with the contract targets, optional hold, resolution, the
 * customer's confirmation), and its status, `firstAcknowledgedAt`, `resolvedAt`, `closedAt`, `slaDueAt`,
 * `slaResult` and `version` are what the history entries up to `now` make of it; about 2 % stay open
 * (stalled: `STALLED_SHARE`, evenly in `new`, `in_progress` and `on_hold`), so the SOC queue and each status
 * filter have old open incidents to find (a full page of each at ×1).
 *
 * Fast: every item is built with the entity declarations (`itemOf` over `lambdas/data/entities.ts`, keys
 * from `keys.ts`) and written with BatchWriteItem, 25 items a call, several calls in flight, unprocessed
 * items sent again. Devices carry their roll-ups (`openAlarms`, the 30-day availability roll-up) computed
 * with the same domain function the repository uses, so the device list takes its fast path. Deterministic:
 * the same factor and `now` give the same items (seeded PRNG). The tenant is registered with `putTenant`
 * once its items are written, then `afterGenerate` runs.
 */
import type { AuditEntry, Incident, IncidentChange, IncidentComment, Office365Alarm, Office365Event, Recommendation, Severity, Tenant } from '../../lambdas/contract/schemas.js';
import type { BatchWriteRequest, TableRef } from '../../lambdas/data/table/client.js';
import { backoffDelayMs, isRetryableDynamoError, type RetryPolicy } from '../../lambdas/data/table/retry.js';
import { readTenantAggregates, rebuildTenantAggregates } from '../../lambdas/data/aggregates.js';
import { markOutages } from '../../lambdas/data/outages.js';
import { recordHeartbeat } from '../../lambdas/data/devices.js';
import { mapLimit } from '../../lambdas/data/table/dynamo-util.js';
import { searchTokenItems } from '../../lambdas/data/incident-search.js';
import { alarmTokenItems } from '../../lambdas/data/alarm-search.js';
import { commentTokenItems } from '../../lambdas/data/comment-search.js';
import { o365UserItems } from '../../lambdas/data/o365-user-search.js';
import { socQueueCountDeltas } from '../../lambdas/data/incidents.js';
import {
  ActivityEventEntity,
  AlarmEntity,
  AuditEntity,
  AvailabilityEntity,
  CommentEntity,
  DeviceEntity,
  HistoryEntity,
  IncidentEntity,
  SocQueueEntryEntity,
  O365AlarmEntity,
  O365EventEntity,
  RecommendationEntity,
  itemOf,
  recordOf,
  type AvailabilityRecord,
} from '../../lambdas/data/entities.js';
import { DEFAULT_RETENTION, type Retention } from '../../lambdas/data/retention.js';
import { putTenant } from '../../lambdas/data/tenants.js';
import { alarmEvent, incidentCreatedEvent, ulid } from '../../lambdas/domain/activity.js';
import { DEVICE_ALARM_TYPES } from '../../lambdas/domain/alarm-types.js';
import { AVAILABILITY_SLA_TARGET_PCT, availabilityRollup } from '../../lambdas/domain/devices.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { formatIncidentId, slaDueAt, slaResultOf, targetsFor } from '../../lambdas/domain/incidents.js';
import type { DailyAvailability, StoredDevice } from '../../lambdas/domain/ports.js';
import { DEMO_RECOMMENDATIONS, DEVICE_KINDS, O365_ALERTS, O365_OPERATIONS, O365_USERS, o365Result } from '../local/demo-data.js';
import { pick, prng } from '../lib/seeded-random.js';

/** The scale factors the bench measures (×1 ≈ a demo-sized customer of 50 devices). */
export const SCALE_FACTORS = [1, 10, 100] as const;
export type ScaleFactor = number;

/** Devices at ×1. */
export const DEVICES_PER_FACTOR = 50;
/** Incidents per device over `INCIDENT_DAYS`. */
export const INCIDENTS_PER_DEVICE = 10;
/** Days of daily availability items per device (today and the 89 days before). */
export const AVAILABILITY_DAYS = 90;
/** Days the incidents and Office 365 alerts are spread over. */
export const INCIDENT_DAYS = 365;
/** Days the device alarms and Office 365 audit events are spread over (their retention). */
export const RECENT_DAYS = 90;
/** Days of activity events (the feed's recent past; older events are not needed to fill its pages). */
export const ACTIVITY_DAYS = 30;
/**
 * The smallest factor whose event volumes a tenant of factor ≥ 1 gets (see module doc): the ×1 tenant has
 * 50 devices and the ×10 tenant's incidents, alarms, Office 365 alerts and events, recommendations and
 * activity. Fractional factors (tests) are not raised.
 */
export const ACTIVITY_FLOOR = 10;
/** Share of incidents that stay open (stalled), spread evenly over `new`, `in_progress` and `on_hold`. */
export const STALLED_SHARE = 0.02;

/** What a scale tenant holds. */
export interface ScaleSpec {
  factor: ScaleFactor;
  tenantId: string;
  tenantName: string;
  devices: number;
  incidents: number;
  /** The factor of the event volumes (`ACTIVITY_FLOOR`): `max(factor, 10)` for factors ≥ 1, else `factor`. */
  activity: number;
}

/**
 * The tenant id of scale `factor`: `scale-x<factor>`, a whole factor in three digits (`scale-x001`,
 * `scale-x010`, `scale-x100`) so that every key and attribute holding the id has the same length at every
 * scale (the id is in each item's keys, `tenantId`, e-mail addresses: ~15 bytes an item, enough to move a
 * page of 20 across a 4 KB capacity unit); a fraction with '-' for the point (`scale-x0-1`).
 */
export const scaleTenantId = (factor: ScaleFactor): string => (Number.isInteger(factor) ? `scale-x${String(factor).padStart(3, '0')}` : `scale-x${String(factor).replace('.', '-')}`);

/** The spec of scale `factor` (positive; fractions give smaller tenants, e.g. 0.1 = 5 devices for tests). */
export function scaleSpec(factor: ScaleFactor): ScaleSpec {
  if (!(factor > 0)) throw new RangeError(`invalid scale factor ${factor}`);
  const devices = Math.max(1, Math.round(DEVICES_PER_FACTOR * factor));
  const activity = factor >= 1 ? Math.max(factor, ACTIVITY_FLOOR) : factor;
  const eventDevices = Math.max(1, Math.round(DEVICES_PER_FACTOR * activity));
  return { factor, tenantId: scaleTenantId(factor), tenantName: `Escala ×${factor} S.A.`, devices, incidents: eventDevices * INCIDENTS_PER_DEVICE, activity };
}

/** Counts of what `generateScaleTenant` wrote. */
export interface GenerateStats {
  tenantId: string;
  devices: number;
  incidents: number;
  /** Items written, of every entity. */
  items: number;
  /** Items per entity name (`Incident`, `DailyAvailability`, …). */
  byEntity: Record<string, number>;
  /** Wall time of the whole generation (writing and registering the tenant, `afterGenerate` excluded), ms. */
  durationMs: number;
  /** `items` / duration, items per second. */
  itemsPerSecond: number;
  /** BatchWriteItem calls sent, retries of unprocessed items included. */
  batchCalls: number;
  /** `afterGenerate` (the rebuild of the tenant's aggregates), ms. */
  afterGenerateMs: number;
}

export interface GenerateOptions {
  /** Reference time: "today" for availability, the end of every spread (default the clock). */
  now?: Date;
  /** BatchWriteItem calls in flight (default 8). */
  concurrency?: number;
  /** TTL retention of time-series items (default `DEFAULT_RETENTION`, as the local stack). */
  retention?: Retention;
  /** Progress lines (items/s), e.g. to stderr; default none. */
  log?: (line: string) => void;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** `ulid`'s randomness drawn from `rnd` (deterministic event ids). */
const randomBytes = (rnd: () => number) => (b: Uint8Array): Uint8Array => {
  for (let i = 0; i < b.length; i++) b[i] = Math.floor(rnd() * 256);
  return b;
};
const seedOf = (s: string): number => [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261);
function weighted<T>(rnd: () => number, xs: ReadonlyArray<readonly [T, number]>): T {
  let r = rnd() * xs.reduce((a, [, w]) => a + w, 0);
  for (const [x, w] of xs) if ((r -= w) < 0) return x;
  return xs[xs.length - 1]![0];
}

const SITES = ['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Bilbao', 'Zaragoza', 'Málaga', 'Murcia', 'Palma', 'Vigo'];
const ANALYSTS = ['laura.soc@vigia.example', 'diego.soc@vigia.example', 'irene.soc@vigia.example', 'marco.soc@vigia.example'];
const INCIDENT_KINDS: ReadonlyArray<readonly [string, string, string]> = [
  ['Malware detectado', 'El EDR detectó y puso en cuarentena un binario sospechoso.', 'malware'],
  ['Correo de phishing notificado', 'Un usuario notificó un correo que suplanta a un proveedor.', 'phishing'],
  ['Accesos fallidos repetidos', 'Intentos de autenticación fallidos desde direcciones externas.', 'acceso'],
  ['Tráfico saliente anómalo', 'Volumen de tráfico inusual hacia un destino sin reputación.', 'red'],
  ['Caída de servicio', 'El dispositivo dejó de responder a la monitorización.', 'disponibilidad'],
  ['Vulnerabilidad crítica publicada', 'Hay un aviso del fabricante que afecta a la versión instalada.', 'vulnerabilidades'],
];
const ALARM_TYPES = Object.values(DEVICE_ALARM_TYPES).filter((t) => t !== DEVICE_ALARM_TYPES.heartbeat_lost);

/** `yyyy-mm-dd` of `ms` (UTC). */
const dayOf = (ms: number) => iso(ms).slice(0, 10);

interface GenDevice {
  stored: StoredDevice;
  health: 'online' | 'degraded' | 'offline' | 'never';
}

/** Sites of a tenant of `devices` devices: one per 25 devices, 2 to `SITES.length`. */
const sitesOf = (devices: number): number => Math.min(SITES.length, Math.max(2, Math.ceil(devices / 25)));

/** The name of the `index`-th device (0-based) of `spec`: site, kind and number, e.g. `MAD-FW-00001`. */
export function scaleDeviceName(spec: ScaleSpec, index: number): string {
  const kind = DEVICE_KINDS[index % DEVICE_KINDS.length]!;
  const site = SITES[Math.floor(index / DEVICE_KINDS.length) % sitesOf(spec.devices)]!;
  return `${site.slice(0, 3).toUpperCase()}-${kind.prefix}-${String(index + 1).padStart(5, '0')}`;
}

/** The devices of the tenant (deterministic), without their items. */
function devicesOf(spec: ScaleSpec, now: number): GenDevice[] {
  const rnd = prng(seedOf(`scale-devices:${spec.tenantId}`));
  return Array.from({ length: spec.devices }, (_, i) => {
    const kind = DEVICE_KINDS[i % DEVICE_KINDS.length]!;
    const site = SITES[Math.floor(i / DEVICE_KINDS.length) % sitesOf(spec.devices)]!;
    const health = weighted(rnd, [['online', 90], ['degraded', 4], ['offline', 5], ['never', 1]] as const);
    const hbAge = health === 'online' ? rnd() * MIN : health === 'degraded' ? 6 * MIN + rnd() * 8 * MIN : HOUR + rnd() * 47 * HOUR;
    const n = String(i + 1).padStart(5, '0');
    return {
      health,
      stored: {
        id: `dev-${n}`,
        tenantId: spec.tenantId,
        name: scaleDeviceName(spec, i),
        type: kind.type,
        site,
        ipAddress: `10.${1 + (Math.floor(i / 62_500) % 250)}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`,
        vendor: kind.vendor,
        model: kind.model,
        lastHeartbeatAt: health === 'never' ? null : iso(now - hbAge),
      },
    };
  });
}

/** Every item of one device: its days, alarms (and their audit entries) and the device item with its roll-ups. */
function* deviceItems(spec: ScaleSpec, d: GenDevice, index: number, now: number, retention: Retention): Generator<Record<string, unknown>> {
  const rnd = prng(seedOf(`scale-device:${spec.tenantId}:${index}`));
  const today = Date.parse(`${dayOf(now)}T00:00:00Z`);
  const days: DailyAvailability[] = [];
  if (d.health !== 'never') {
    const base = d.health === 'offline' ? 93 : d.health === 'degraded' ? 97.5 : 99.6;
    for (let k = AVAILABILITY_DAYS - 1; k >= 0; k--) {
      const start = today - k * DAY;
      const rec: AvailabilityRecord = {
        tenantId: spec.tenantId,
        deviceId: d.stored.id,
        date: dayOf(start),
        availablePct: Math.round(Math.min(100, base + (rnd() - 0.3) * (100 - base) * 1.4) * 100) / 100,
        monitoredSeconds: k === 0 ? Math.max(60, Math.floor((now - start) / 1000)) : 86_400,
      };
      const item = itemOf(AvailabilityEntity, rec, retention);
      if (k < 30) days.push(recordOf(AvailabilityEntity, item));
      yield item;
    }
  }
  // Alarms: cleared ones over the last RECENT_DAYS; an open one on offline/degraded devices and a few others.
  // A tenant whose event volumes are raised (`spec.activity` > factor: ×1) draws them `activity / factor`
  // times per device (rounds after the first: other cleared alarms, and an open one as often as a ×10 device
  // has one), so its alarm list has the ×10 tenant's density.
  let open = 0;
  const alarms: Parameters<typeof AlarmEntity.key>[0][] = [];
  const rounds = Math.max(1, Math.round(spec.activity / spec.factor));
  for (let round = 0; round < rounds; round++) {
    const idOf = (k: number) => (round === 0 ? `ALM-${d.stored.id}-${k}` : `ALM-${d.stored.id}-r${round}-${k}`);
    const nCleared = Math.floor(rnd() * 3) + (rnd() < 0.5 ? 0 : 1);
    for (let a = 0; a < nCleared; a++) {
      const type = pick(rnd, ALARM_TYPES);
      const raised = now - 10 * MIN - Math.floor(rnd() * (RECENT_DAYS - 1) * DAY);
      alarms.push({ id: idOf(a + 1), tenantId: spec.tenantId, deviceId: d.stored.id, title: type.title, severity: type.severity, state: 'cleared', raisedAt: iso(raised), acknowledgedAt: null, acknowledgedBy: null, clearedAt: iso(Math.min(now, raised + 10 * MIN + Math.floor(rnd() * 2 * HOUR))) });
    }
    const openState =
      round === 0
        ? d.health === 'offline' ? 'active' : d.health === 'degraded' ? 'acknowledged' : rnd() < 0.02 ? 'active' : rnd() < 0.03 ? 'acknowledged' : null
        : // a ×10 device: offline 5 %, degraded 4 %, others 2 % / 3 %
          rnd() < 0.14 ? (rnd() < 0.55 ? 'active' : 'acknowledged') : null;
    if (!openState) continue;
    const type = round === 0 && d.health === 'offline' ? DEVICE_ALARM_TYPES.heartbeat_lost : pick(rnd, ALARM_TYPES);
    const raised = round === 0 && d.stored.lastHeartbeatAt && d.health === 'offline' ? Date.parse(d.stored.lastHeartbeatAt) + 5 * MIN : now - Math.floor(HOUR + rnd() * 2 * DAY);
    const ackAt = Math.min(now, raised + (10 + Math.floor(rnd() * 30)) * MIN);
    const analyst = pick(rnd, ANALYSTS);
    const id = idOf(nCleared + 1);
    alarms.push({
      id,
      tenantId: spec.tenantId,
      deviceId: d.stored.id,
      title: type.title,
      severity: type.severity,
      state: openState,
      raisedAt: iso(raised),
      acknowledgedAt: openState === 'acknowledged' ? iso(ackAt) : null,
      acknowledgedBy: openState === 'acknowledged' ? analyst : null,
      clearedAt: null,
    });
    open++;
    if (openState === 'acknowledged') {
      const entry: AuditEntry = {
        id: round === 0 ? `aud-${d.stored.id}-ack` : `aud-${d.stored.id}-r${round}-ack`,
        at: iso(ackAt),
        tenantId: spec.tenantId,
        actor: { sub: `sub-${analyst}`, email: analyst },
        action: 'alarm.acknowledge',
        target: { type: 'alarm', id: `${d.stored.id}/${id}` },
        before: { state: 'active' },
        after: { state: 'acknowledged' },
        requestId: round === 0 ? `scale-${d.stored.id}-ack` : `scale-${d.stored.id}-r${round}-ack`,
        sourceIp: '203.0.113.20',
      };
      yield itemOf(AuditEntity, entry, retention);
    }
  }
  for (const a of alarms) {
    yield itemOf(AlarmEntity, a, retention);
    // Its title's words, for the alarm search (docs/api.md#alarm-search), as the raise writes them.
    yield* alarmTokenItems(a);
    // The activity event of a recent critical/high alarm's raise (`alarmEvent`), as the raise writes it.
    if (Date.parse(a.raisedAt) >= now - ACTIVITY_DAYS * DAY) {
      const ev = alarmEvent(null, a, { eventId: ulid(Date.parse(a.raisedAt), randomBytes(rnd)) });
      if (ev) yield itemOf(ActivityEventEntity, { ...ev, outbox: 'DONE' }, retention);
    }
  }
  const rollup = availabilityRollup(days, dayOf(now));
  // The roll-ups `putDevice` and the alarm writes maintain (docs/data-model.md, "Device roll-ups"), as they
  // would stand after these writes: openAlarms counted, the availability roll-up current (rev 0).
  // …and its place in the below-SLA index, as `refreshAvailabilityRollup` writes it.
  const below = rollup.pct30d.some((p) => p !== null && p < AVAILABILITY_SLA_TARGET_PCT) ? keys.belowSlaGsi2(d.stored.tenantId, d.stored.id, rollup.asOf, rollup.pct30d[0] ?? null) : {};
  yield { ...itemOf(DeviceEntity, d.stored, retention), openAlarms: open, availRev: 0, availRollupRev: 0, availAsOf: rollup.asOf, availSum30d: rollup.sums!.sum, availMon30d: rollup.sums!.weight, ...below };
}

/** One incident with its history and comments, drawn from its timeline (see module doc). */
interface GenIncident {
  incident: Incident;
  history: IncidentChange[];
  comments: IncidentComment[];
}

/** The `seq`-th incident (1-based, in creation order) of the tenant. */
function incidentOf(spec: ScaleSpec, seq: number, devices: readonly GenDevice[], now: number): GenIncident {
  const rnd = prng(seedOf(`scale-incident:${spec.tenantId}:${seq}`));
  const span = INCIDENT_DAYS * DAY;
  const created = Math.floor(now - span + ((seq - 1 + rnd()) / spec.incidents) * span);
  const severity = weighted<Severity>(rnd, [['critical', 5], ['high', 20], ['medium', 40], ['low', 35]]);
  const [title, description, category] = pick(rnd, INCIDENT_KINDS);
  const device = devices[Math.floor(rnd() * devices.length)]!.stored;
  const source = weighted(rnd, [['portal', 40], ['soc', 30], ['alarm', 30]] as const);
  const reporter = source === 'portal' ? `usuario${1 + Math.floor(rnd() * 20)}@${spec.tenantId}.example` : 'soc@vigia.example';
  const analyst = pick(rnd, ANALYSTS);
  const targets = targetsFor(null, severity);
  // The timeline, minutes after creation: most responses and resolutions within their targets, some late.
  const ackMin = targets.responseMinutes * (rnd() < 0.85 ? 0.1 + 0.85 * rnd() : 1 + 2 * rnd());
  const resolveMin = Math.max(ackMin + 5, targets.resolutionMinutes * (rnd() < 0.85 ? 0.2 + 0.75 * rnd() : 1.05 + 1.5 * rnd()));
  const closeMin = resolveMin + 60 * (2 + 70 * rnd());
  const triaged = rnd() < 0.6;
  // A stalled incident stays in one open status (`STALLED_SHARE`, evenly over new / in_progress / on_hold).
  const stalled = rnd() < STALLED_SHARE;
  const stalledIn = stalled ? pick(rnd, ['new', 'in_progress', 'on_hold'] as const) : null;
  const hold = stalledIn ? stalledIn === 'on_hold' : rnd() < 0.25;
  const commented = rnd() < 0.3;
  const at = (min: number) => created + Math.floor(min * MIN);
  const fmt = `response ${targets.responseMinutes} min, resolution ${targets.resolutionMinutes} min`;
  type Step = { atMs: number; changes: IncidentChange['changes']; reason?: string };
  const steps: Step[] = stalledIn === 'new' ? [] : [{ atMs: at(ackMin), changes: [{ field: 'status', from: 'new', to: 'in_progress' }] }];
  if (triaged && stalledIn !== 'new') steps.push({ atMs: at(ackMin + 1), changes: [{ field: 'slaTargets', from: null, to: fmt }], reason: 'Clasificación del SOC tras el análisis inicial.' });
  if (hold && stalledIn !== 'new') {
    const h = ackMin + 2 + (resolveMin - ackMin) * 0.3;
    steps.push({ atMs: at(h), changes: [{ field: 'status', from: 'in_progress', to: 'on_hold' }] });
    if (!stalled) steps.push({ atMs: at(Math.max(h + 1, ackMin + 2 + (resolveMin - ackMin) * 0.6)), changes: [{ field: 'status', from: 'on_hold', to: 'in_progress' }] });
  }
  if (!stalled) {
    steps.push({ atMs: at(Math.max(resolveMin, ackMin + 6)), changes: [{ field: 'status', from: 'in_progress', to: 'resolved' }] });
    steps.push({ atMs: at(Math.max(closeMin, ackMin + 7)), changes: [{ field: 'status', from: 'resolved', to: 'closed' }] });
  }
  const done = steps.filter((s) => s.atMs <= now).sort((a, b) => a.atMs - b.atMs);
  const history: IncidentChange[] = done.map((s, k) => ({ version: k + 2, at: iso(s.atMs), by: analyst, changes: s.changes, ...(s.reason ? { reason: s.reason } : {}) }));
  const statusAt = (field: string) => done.filter((s) => s.changes.some((c) => c.field === 'status' && c.to === field)).at(-1);
  const lastStatus = [...done].reverse().find((s) => s.changes.some((c) => c.field === 'status'));
  const status = (lastStatus?.changes.find((c) => c.field === 'status')?.to ?? 'new') as Incident['status'];
  const acked = done.length > 0;
  const isTriaged = done.some((s) => s.changes.some((c) => c.field === 'slaTargets'));
  const resolvedAt = status === 'resolved' || status === 'closed' ? iso(statusAt('resolved')!.atMs) : null;
  const closedAt = status === 'closed' ? iso(statusAt('closed')!.atMs) : null;
  const id = formatIncidentId(seq);
  const incident: Incident = {
    id,
    tenantId: spec.tenantId,
    title: `${title} en ${device.name}`,
    description: `${description} Dispositivo ${device.name} (${device.site}).`,
    severity,
    status,
    category,
    source,
    reporter,
    assignee: acked ? analyst : null,
    createdAt: iso(created),
    updatedAt: iso(done.at(-1)?.atMs ?? created),
    resolvedAt,
    slaDueAt: slaDueAt(iso(created), severity, isTriaged ? targets : null),
    version: 1 + history.length,
    slaTargets: isTriaged ? targets : null,
    triagedAt: isTriaged ? iso(at(ackMin + 1)) : null,
    firstAcknowledgedAt: acked ? iso(done[0]!.atMs) : null,
    closureRequested: false,
    closedAt,
    slaResult: null,
  };
  if (closedAt) incident.slaResult = slaResultOf(incident, closedAt);
  const comments: IncidentComment[] =
    commented && acked && at(ackMin + 2) <= now
      ? [{ id: `c-${spec.tenantId}-${seq}`, author: analyst, body: 'El SOC está analizando el incidente; se informará de las acciones de contención.', createdAt: iso(at(ackMin + 2)), visibility: 'public' }]
      : [];
  return { incident, history, comments };
}

/** Every item of the incidents (with history, comments and the audit entry of each creation) and the counter. */
function* incidentItems(spec: ScaleSpec, devices: readonly GenDevice[], now: number, retention: Retention): Generator<Record<string, unknown>> {
  // The SOC queue's tab counts, summed over the incidents as their transactions ADD them (docs/sla.md#soc-queue).
  const counts = new Map<string, { open: number; resolved: number }>();
  for (let seq = 1; seq <= spec.incidents; seq++) {
    const { incident: i, history, comments } = incidentOf(spec, seq, devices, now);
    yield itemOf(IncidentEntity, i);
    // A not-closed incident's SOC queue entry, as its transactions keep it (docs/sla.md#soc-queue).
    if (i.status !== 'closed') yield itemOf(SocQueueEntryEntity, i);
    for (const [k, d] of socQueueCountDeltas(null, i)) {
      const c = counts.get(k) ?? { open: 0, resolved: 0 };
      counts.set(k, { open: c.open + d.open, resolved: c.resolved + d.resolved });
    }
    // The feed's `incident.created` event of a recent incident, as `createIncident` writes it (delivered).
    if (Date.parse(i.createdAt) >= now - ACTIVITY_DAYS * DAY) {
      const ev = incidentCreatedEvent(i, { eventId: ulid(Date.parse(i.createdAt), randomBytes(prng(seedOf(`scale-event:${i.tenantId}:${seq}`)))) });
      yield itemOf(ActivityEventEntity, { ...ev, outbox: 'DONE' }, retention);
    }
    // The title's search tokens (docs/data-model.md#search), as the repository writes them.
    yield* searchTokenItems(i);
    for (const h of history) yield itemOf(HistoryEntity, { ...h, tenantId: i.tenantId, incidentId: i.id, incidentCreatedAt: i.createdAt });
    for (const c of comments) {
      yield itemOf(CommentEntity, { ...c, tenantId: i.tenantId, incidentId: i.id });
      // Its words, for the comment search (docs/api.md#comment-search), as the comment's write puts them.
      yield* commentTokenItems(i.tenantId, i.id, c);
    }
    const entry: AuditEntry = {
      id: `aud-${i.id}`,
      at: i.createdAt,
      tenantId: i.tenantId,
      actor: { sub: `sub-${i.reporter}`, email: i.reporter },
      action: 'incident.create',
      target: { type: 'incident', id: i.id },
      after: { title: i.title, severity: i.severity },
      requestId: `scale-${i.id}`,
      sourceIp: '203.0.113.10',
    };
    yield itemOf(AuditEntity, entry, retention);
  }
  for (const [k, c] of counts) {
    const [pk, shard] = k.split('|') as [string, string];
    yield { ...keys.socQueueCount(pk, Number(shard)), entity: 'SocQueueCount', open: c.open, resolved: c.resolved };
  }
  // The incident number counter (`incidentSeq` of the stats item) is set by the rebuild in `afterGenerate`.
}

/** Office 365 alerts and audit events, and the recommendations, in proportion to the devices. */
function* officeItems(spec: ScaleSpec, now: number, retention: Retention): Generator<Record<string, unknown>> {
  const rnd = prng(seedOf(`scale-o365:${spec.tenantId}`));
  const user = () => `${pick(rnd, O365_USERS)}@${spec.tenantId}.example`;
  // Event volumes follow `spec.activity` (the ×1 tenant: the ×10 tenant's; see module doc).
  const eventDevices = Math.max(1, Math.round(DEVICES_PER_FACTOR * spec.activity));
  const nAlarms = Math.max(1, Math.round(eventDevices / 2));
  const users = new Map<string, Record<string, unknown>>();
  for (let k = 0; k < nAlarms; k++) {
    const [title, severity, category] = pick(rnd, O365_ALERTS);
    const detected = Math.floor(now - INCIDENT_DAYS * DAY + ((k + rnd()) / nAlarms) * INCIDENT_DAYS * DAY);
    const age = now - detected;
    const status: Office365Alarm['status'] = age > 7 * DAY ? (rnd() < 0.97 ? 'resolved' : 'investigating') : weighted(rnd, [['active', 50], ['investigating', 30], ['resolved', 20]] as const);
    const a: Office365Alarm = {
      id: `o365-${spec.tenantId}-${String(k + 1).padStart(6, '0')}`,
      tenantId: spec.tenantId,
      title,
      severity,
      category,
      status,
      affectedUser: rnd() < 0.9 ? user() : null,
      detectedAt: iso(detected),
      updatedAt: iso(status === 'active' ? detected : Math.min(now, detected + Math.floor((1 + rnd() * 40) * HOUR))),
    };
    yield itemOf(O365AlarmEntity, a, retention);
    // The user it names, for the user search (docs/api.md#office-365-user-search), as the alert's write puts it:
    // one item per user and name part, the latest alert's (alerts are generated oldest first).
    for (const u of o365UserItems(a)) users.set(`${String(u.PK)}|${String(u.SK)}`, u);
  }
  yield* users.values();
  const nEvents = eventDevices * 5;
  for (let k = 0; k < nEvents; k++) {
    const [workload, operation] = pick(rnd, O365_OPERATIONS);
    const e: Office365Event = {
      id: `o365-ev-${spec.tenantId}-${String(k + 1).padStart(7, '0')}`,
      tenantId: spec.tenantId,
      workload,
      operation,
      user: user(),
      result: o365Result(operation, rnd, 0.05),
      clientIp: `203.0.113.${1 + Math.floor(rnd() * 250)}`,
      at: iso(Math.floor(now - (RECENT_DAYS - 1) * DAY + ((k + rnd()) / nEvents) * (RECENT_DAYS - 1) * DAY)),
    };
    yield itemOf(O365EventEntity, e, retention);
  }
  const nRecs = Math.max(1, Math.round(eventDevices / 10));
  for (let k = 0; k < nRecs; k++) {
    const [title, rationale, priority, category] = DEMO_RECOMMENDATIONS[k % DEMO_RECOMMENDATIONS.length]!;
    const created = Math.floor(now - INCIDENT_DAYS * DAY + ((k + rnd()) / nRecs) * INCIDENT_DAYS * DAY);
    const status = weighted<Recommendation['status']>(rnd, [['open', 50], ['accepted', 20], ['done', 20], ['dismissed', 10]]);
    const changed = status !== 'open';
    const r: Recommendation = {
      id: `rec-${spec.tenantId}-${String(k + 1).padStart(5, '0')}`,
      tenantId: spec.tenantId,
      title,
      rationale,
      priority,
      category,
      status,
      createdAt: iso(created),
      statusNote: changed ? 'Revisado con el cliente.' : null,
      statusChangedBy: changed ? `usuario1@${spec.tenantId}.example` : null,
      statusChangedAt: changed ? iso(Math.min(now, created + Math.floor((1 + rnd() * 20) * DAY))) : null,
    };
    yield itemOf(RecommendationEntity, r, retention);
  }
}

/** Every item of the tenant (see module doc), in an order that writes the devices' days before the devices. */
export function* scaleItems(spec: ScaleSpec, now: Date, retention: Retention = DEFAULT_RETENTION): Generator<Record<string, unknown>> {
  const t = now.getTime();
  const devices = devicesOf(spec, t);
  for (const [i, d] of devices.entries()) yield* deviceItems(spec, d, i, t, retention);
  yield* incidentItems(spec, devices, t, retention);
  yield* officeItems(spec, t, retention);
}

/** The tenant registry item of `spec` (default contract targets). */
export function scaleTenant(spec: ScaleSpec): Tenant {
  return { id: spec.tenantId, name: spec.tenantName };
}

/** Backoff of a bulk load's resends: full jitter, 20 ms doubling up to 1 s (`retry.ts`'s computation). */
const LOAD_PACING: RetryPolicy = { maxAttempts: Number.MAX_SAFE_INTEGER, baseMs: 20, capMs: 1000, maxTotalMs: Number.MAX_SAFE_INTEGER };
/** A bulk load gives up after this long without writing an item (ms). */
const LOAD_STALL_MS = 60_000;

/**
 * Writes `items` with BatchWriteItem, 25 per call, `concurrency` calls in flight. A bulk load outruns a
 * partition's 1,000 WCU/s (docs/local-emulation.md#dynamodb-rules), so it paces itself as DynamoDB asks of a
 * batch writer (BatchWriteItem API reference: retry `UnprocessedItems` with exponential backoff): unprocessed
 * items, and a call refused whole after the client's own retries (throttling, or anything else `retry.ts`
 * retries), are sent again after a full-jitter backoff of up to 1 s; it gives up only after 60 s without
 * progress. Calls `onBatch(itemsWritten)` after each call. Returns the calls made.
 * @throws the last error, or an Error naming the items left, after 60 s without progress
 */
export async function batchWriteAll(table: TableRef, items: Iterable<Record<string, unknown>>, concurrency = 8, onBatch: (n: number) => void = () => undefined): Promise<number> {
  const it = items[Symbol.iterator]();
  let calls = 0;
  const next = (): BatchWriteRequest[] => {
    const batch: BatchWriteRequest[] = [];
    while (batch.length < 25) {
      const r = it.next();
      if (r.done) break;
      batch.push({ PutRequest: { Item: r.value } });
    }
    return batch;
  };
  const worker = async () => {
    for (let batch = next(); batch.length > 0; batch = next()) {
      let pending = batch;
      let progressAt = Date.now();
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, backoffDelayMs(attempt, LOAD_PACING)));
        calls++;
        let left: BatchWriteRequest[];
        try {
          const out = await table.doc.send('BatchWriteItem', { RequestItems: { [table.tableName]: pending } });
          left = out.UnprocessedItems?.[table.tableName] ?? [];
        } catch (e) {
          if (!isRetryableDynamoError(e) || Date.now() - progressAt > LOAD_STALL_MS) throw e;
          left = pending;
        }
        if (left.length < pending.length) {
          progressAt = Date.now();
          attempt = 0;
        } else if (Date.now() - progressAt > LOAD_STALL_MS) {
          throw new Error(`BatchWriteItem: ${pending.length} items still unprocessed after ${LOAD_STALL_MS / 1000} s without progress`);
        }
        onBatch(pending.length - left.length);
        pending = left;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return calls;
}

/**
 * Writes the scale tenant `spec` into `table` (see module doc) and registers it; then runs
 * `afterGenerate`. Progress (items, items/s) goes to `opts.log` about every 2 s.
 * @returns what was written and how fast (`afterGenerate` timed apart: `afterGenerateMs`).
 */
export async function generateScaleTenant(table: TableRef, spec: ScaleSpec, opts: GenerateOptions = {}): Promise<GenerateStats> {
  const now = opts.now ?? new Date();
  const retention = opts.retention ?? DEFAULT_RETENTION;
  const t0 = performance.now();
  const byEntity: Record<string, number> = {};
  let written = 0;
  let lastLog = t0;
  const counted = function* () {
    for (const item of scaleItems(spec, now, retention)) {
      const e = String(item.entity);
      byEntity[e] = (byEntity[e] ?? 0) + 1;
      yield item;
    }
  };
  const batchCalls = await batchWriteAll(table, counted(), opts.concurrency ?? 8, (n) => {
    written += n;
    const t = performance.now();
    if (opts.log && t - lastLog > 2000) {
      lastLog = t;
      opts.log(`scale ×${spec.factor}: ${written.toLocaleString('en')} items, ${Math.round(written / ((t - t0) / 1000)).toLocaleString('en')} items/s`);
    }
  });
  await putTenant(scaleTenant(spec), table);
  const durationMs = performance.now() - t0;
  const stats: GenerateStats = {
    tenantId: spec.tenantId,
    devices: spec.devices,
    incidents: spec.incidents,
    items: written,
    byEntity,
    durationMs: Math.round(durationMs),
    itemsPerSecond: Math.round(written / (durationMs / 1000)),
    batchCalls,
    afterGenerateMs: 0,
  };
  opts.log?.(`scale ×${spec.factor}: ${written.toLocaleString('en')} items in ${(durationMs / 1000).toFixed(1)} s (${stats.itemsPerSecond.toLocaleString('en')} items/s, ${batchCalls} BatchWriteItem calls)`);
  const t1 = performance.now();
  await afterGenerate(table, spec.tenantId, now);
  stats.afterGenerateMs = Math.round(performance.now() - t1);
  return stats;
}

/**
 * The tenant's live devices (online and degraded when generated) beat again at `now`, each at its generated
 * age before `now` (`recordHeartbeat`: the device's `lastHeartbeatAt`, its heartbeat item and histogram minute;
 * at most 16 in flight), then the SLA job's outage markers step (`markOutages`, docs/data-model.md#outage-markers),
 * as a running stage's job does within 5 minutes of a device going down. A generation of ×100 takes
 * ~10 min, after which a dataset frozen at its start would show every device offline: a running fleet kept
 * beating meanwhile, so the views are measured on the fleet as it stands (90 % online). Returns the devices beaten.
 */
export async function beatLiveDevices(table: TableRef, spec: ScaleSpec, now: Date): Promise<number> {
  const live = devicesOf(spec, now.getTime()).filter((d) => d.stored.lastHeartbeatAt !== null && (d.health === 'online' || d.health === 'degraded'));
  await mapLimit(live, 16, (d) => recordHeartbeat({ tenantId: spec.tenantId, deviceId: d.stored.id, at: d.stored.lastHeartbeatAt! }, table, now));
  await markOutages(spec.tenantId, (await readTenantAggregates(table, spec.tenantId)).heartbeat, now, table);
  return live.length;
}

/**
 * Recomputes the tenant's write-time aggregates (the rebuild command, `rebuildTenantAggregates`) after its
 * items were written in bulk (BatchWriteItem bypasses the writes that maintain them), as of `now`.
 */
export async function afterGenerate(table: TableRef, tenantId: string, now: Date): Promise<void> {
  await rebuildTenantAggregates(table, tenantId, { write: true, now });
}
