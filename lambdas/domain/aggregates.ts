/**
 * Write-time aggregates of a tenant (docs/data-model.md#aggregates): what one stored record adds to its
 * tenant's counters, as plain data. The data layer (`lambdas/data/aggregates.ts`) adds the difference
 * `delta(contribution(before), contribution(after))` to the aggregate items in the SAME TransactWriteItems
 * as the write that changes the record, and the rebuild command sums the contributions of every stored
 * record; both use these functions, so a maintained aggregate and a rebuilt one can only differ when a write
 * bypassed them (the drift the rebuild's `--check` reports).
 *
 * Three kinds of aggregate items per tenant are fed from here:
 *  - **stats** (one item): current state — incidents by status and severity, open device alarms by
 *    severity, Office 365 alarms by status, number of devices;
 *  - **day** (one item per UTC day, `yyyy-mm-dd`): what happened on that day — incidents created (by
 *    severity, and their current status), their acknowledgement and resolution times (sums in ms and counts:
 *    MTTA and MTTR of the incidents created that day), SLA results, open incidents by SLA due hour (for
 *    "open and breached" at any instant), device alarms raised by severity and by title.
 *  - **hour** (one item per UTC hour, `yyyy-mm-ddTHH`): the incident part of the day item (`incidentDay`) for
 *    the incidents created in that hour, so a report reads a partial first or last day as hour items plus
 *    at most one partial hour's incidents at each end, whatever the tenant's size.
 * Incident figures are filed under the incident's creation day (and hour) because the reports count
 * "incidents created in the period" (lambdas/domain/reports.ts).
 *
 * A fourth, the heartbeat histogram (devices by the UTC minute of their last heartbeat), gives devices by
 * status at one-minute resolution (`devicesByStatus`).
 */
import type { DeviceAlarm, DeviceStatus, Incident, Office365Alarm, Severity } from '../contract/schemas.js';
import { DEVICE_STATUSES, INCIDENT_STATUSES, SEVERITIES } from '../contract/schemas.js';
import { DEVICE_ALARM_TYPES } from './alarm-types.js';
import { HEARTBEAT_THRESHOLDS_MS, OPEN_ALARM_STATES, OUTAGE_MAX_DAYS } from './devices.js';

import type { Counters } from './ports.js';

export type { Counters };

/**
 * Version of the aggregate definitions; a stats item without it (or older) is rebuilt by the migration
 * (`upgradeAggregates`). 2: short day-item names (`agg`) and the hour items (`incidentHour`). 3: the incident
 * number counter is attribute `incidentSeq` of the stats item (the rebuild moves the old `COUNTER#INCIDENT`
 * item's value there and deletes that item). 4: the day and hour items' stored names (`storedName` in
 * lambdas/data/aggregates.ts: short status, severity and alarm-type codes) and their unresolved incidents
 * stored one attribute each (`o<number>` = due hour, REMOVEd once resolved) instead of `d#<due hour>`
 * counters that stayed behind at 0; the in-memory names (`agg`) are unchanged. 5: the heartbeat histogram's
 * sums (`hbMinuteSum`) and day bins (`hbDay`, `hbDaySum`: minutes fold into their day, days into `old`), from
 * which the fleet's open-outage time is computed (`histogramOutage`); the upgrade's roll-up refresh also writes
 * each device's roll-up in its sums shape (docs/data-model.md, "Device roll-ups"). 6: the resolution-SLA
 * counters per severity of the day and hour items (`slaResolved`, `slaMetBy`: at most 8 more attributes per
 * item), from which the monthly report's SLA compliance per severity is read (issue 32 point 5).
 */
export const AGGREGATES_VERSION = 6;

/** One-letter code of a severity in the day and hour items' attribute names (`c`, `h`, `m`, `l`). */
const SEV_CODE: Record<string, string> = { critical: 'c', high: 'h', medium: 'm', low: 'l' };
const SEV_OF_CODE: Record<string, Severity> = { c: 'critical', h: 'high', m: 'medium', l: 'low' };
const sevCode = (severity: string): string => SEV_CODE[severity] ?? severity;

/** Alarm titles of the catalogue (`DEVICE_ALARM_TYPES`) → their key, and back. */
const TYPE_OF_TITLE = new Map<string, string>(Object.entries(DEVICE_ALARM_TYPES).map(([k, t]) => [t.title, k]));
const TITLE_OF_TYPE = new Map<string, string>(Object.entries(DEVICE_ALARM_TYPES).map(([k, t]) => [k, t.title]));

/** `yyyy-mm-ddTHH` → `yymmddHH` (the due hour in an `openDue` name; order-preserving for 2000–2099). */
const compactHour = (hour: string): string => `${hour.slice(2, 4)}${hour.slice(5, 7)}${hour.slice(8, 10)}${hour.slice(11, 13)}`;

/**
 * Attribute names, spelled once. Every name is a plain string used through ExpressionAttributeNames.
 * These are the in-memory names of the counters; the day and hour items store them under shorter names and
 * store the `openDue` counters as one attribute per unresolved incident (`storedName` / `dayCountersOf` in
 * lambdas/data/aggregates.ts, docs/data-model.md#day-item-layout; since `AGGREGATES_VERSION` 4), because
 * every report reads one day item per day of its period and the names are most of its bytes.
 */
export const agg = {
  incidents: (status: string, severity: string) => `inc#${status}#${severity}`,
  openAlarms: (severity: string) => `alarmOpen#${severity}`,
  /** Open device alarms by state (`active`, `acknowledged`). */
  alarmState: (state: string) => `alarmState#${state}`,
  o365Alarms: (status: string) => `o365#${status}`,
  devices: 'devices',
  /** Day/hour: incidents created, by severity (`c#c` … `c#l`). */
  created: (severity: string) => `c#${sevCode(severity)}`,
  /** Day/hour: incidents created, by their current status (`s#new`, …). */
  createdStatus: (status: string) => `s#${status}`,
  ttaCount: 'taN',
  ttaSumMs: 'taMs',
  ttrCount: 'trN',
  ttrSumMs: 'trMs',
  slaMet: 'met',
  /** Day/hour: incidents of that severity resolved (`q#c` … `q#l`; their sum is `ttrCount`): the SLA's denominator per severity. */
  slaResolved: (severity: string) => `q#${sevCode(severity)}`,
  /** Day/hour: incidents of that severity resolved within their SLA (`k#c` … `k#l`; their sum is `slaMet`). */
  slaMetBy: (severity: string) => `k#${sevCode(severity)}`,
  /** Open (not resolved, not closed) incidents created that day/hour whose SLA is due in the UTC hour `hour` (`yyyy-mm-ddTHH`): `d#yymmddHH`. */
  openDue: (hour: string) => `d#${compactHour(hour)}`,
  /** Day: device alarms raised, by severity (`r#c` … `r#l`). */
  alarmsRaised: (severity: string) => `r#${sevCode(severity)}`,
  /** Day: device alarms raised by title and severity: `t#<catalogue key>#<sev>` for a catalogue title, else `T#<sev>#<title>`. */
  alarmTitle: (severity: string, title: string) => {
    const type = TYPE_OF_TITLE.get(title);
    return type ? `t#${type}#${sevCode(severity)}` : `T#${sevCode(severity)}#${title}`;
  },
  /** Heartbeat histogram: devices whose last heartbeat is in UTC minute `m` (epoch minutes). */
  hbMinute: (m: number) => `m#${m}`,
  /** Heartbeat histogram: devices never seen. */
  hbNever: 'never',
  /**
   * Heartbeat histogram: Σ (lastHeartbeatAt − start of UTC minute `m`) of the devices of `hbMinute(m)`, ms —
   * with the count, what the devices' recorded last heartbeats add up to (offsets, so the sum stays an exact
   * integer far below 2^53 whatever the fleet: docs/data-model.md#outages).
   */
  hbMinuteSum: (m: number) => `ms#${m}`,
  /** Heartbeat histogram: devices whose last heartbeat is on UTC day `date` (`yyyy-mm-dd`), minutes folded (offline). */
  hbDay: (date: string) => `d#${date}`,
  /** Heartbeat histogram: Σ (lastHeartbeatAt − 00:00 UTC of `date`) of the devices of `hbDay(date)`, ms. */
  hbDaySum: (date: string) => `ds#${date}`,
  /** Heartbeat histogram: devices whose last heartbeat is before the folded days (offline; no sum: before any outage window). */
  hbOld: 'old',
  /** Day: monitored time of the tenant's devices that day, ms (the weights of the availability formula). */
  availMonitoredMs: 'avMs',
  /** Day: available time of the tenant's devices that day, ms (each device-day's clamped % × its monitored time). */
  availUpMs: 'upMs',
} as const;

/** The title and severity an `agg.alarmTitle` name counts, or null for any other name. */
export function alarmTitleOf(name: string): { title: string; severity: Severity } | null {
  if (name.startsWith('t#')) {
    const [, type, code] = name.split('#') as [string, string, string];
    const title = TITLE_OF_TYPE.get(type);
    const severity = SEV_OF_CODE[code];
    return title && severity ? { title, severity } : null;
  }
  if (name.startsWith('T#')) {
    const severity = SEV_OF_CODE[name.slice(2, 3)];
    return severity && name[3] === '#' ? { title: name.slice(4), severity } : null;
  }
  return null;
}

/** Open incidents of counters `c` whose SLA is due in a UTC hour before `hour` (`yyyy-mm-ddTHH`). */
export function openDueBefore(c: Counters, hour: string): number {
  const limit = `d#${compactHour(hour)}`;
  let n = 0;
  for (const [k, v] of Object.entries(c)) if (k.startsWith('d#') && k < limit) n += v;
  return n;
}

const add = (c: Counters, k: string, v = 1) => {
  c[k] = (c[k] ?? 0) + v;
};

/** Whether an incident counts as resolved within its SLA (docs/sla.md: a closed incident keeps `slaResult`). */
export function resolvedWithinSla(i: Pick<Incident, 'resolvedAt' | 'slaDueAt' | 'slaResult'>): boolean {
  return i.resolvedAt !== null && (i.slaResult ? i.slaResult === 'met' : i.resolvedAt <= i.slaDueAt);
}

/** Whether an incident is still unresolved (not resolved, not closed): it can breach its SLA. */
export const isUnresolved = (i: Pick<Incident, 'resolvedAt' | 'status'>): boolean => i.resolvedAt === null && i.status !== 'closed';

/** The UTC hour `yyyy-mm-ddTHH` of an ISO-8601 instant. */
export const hourOf = (iso: string): string => iso.slice(0, 13);

/** What `i` adds to the tenant's stats item. */
export function incidentStats(i: Incident): Counters {
  return { [agg.incidents(i.status, i.severity)]: 1 };
}

/**
 * What `i` adds to the day item of its creation day (`i.createdAt`, UTC): created by severity and current
 * status; MTTA from `firstAcknowledgedAt` (docs/sla.md#mtta) and MTTR from `resolvedAt`, as ms sums and
 * counts; SLA met (in all and by severity, with the resolved by severity: `slaResolved`, `slaMetBy`);
 * open-and-unresolved by SLA due hour.
 */
export function incidentDay(i: Incident): Counters {
  const c: Counters = { [agg.created(i.severity)]: 1, [agg.createdStatus(i.status)]: 1 };
  if (i.firstAcknowledgedAt) {
    add(c, agg.ttaCount);
    add(c, agg.ttaSumMs, Date.parse(i.firstAcknowledgedAt) - Date.parse(i.createdAt));
  }
  if (i.resolvedAt) {
    add(c, agg.ttrCount);
    add(c, agg.ttrSumMs, Date.parse(i.resolvedAt) - Date.parse(i.createdAt));
    add(c, agg.slaResolved(i.severity));
    if (resolvedWithinSla(i)) {
      add(c, agg.slaMet);
      add(c, agg.slaMetBy(i.severity));
    }
  } else if (isUnresolved(i)) add(c, agg.openDue(hourOf(i.slaDueAt)));
  return c;
}

/** What an alarm adds to the stats item (open alarms by severity and by state). */
export function alarmStats(a: Pick<DeviceAlarm, 'state' | 'severity'>): Counters {
  return OPEN_ALARM_STATES.includes(a.state) ? { [agg.openAlarms(a.severity)]: 1, [agg.alarmState(a.state)]: 1 } : {};
}

/** What an alarm adds to the day item of its `raisedAt` day (raised by severity and by title). */
export function alarmDay(a: Pick<DeviceAlarm, 'severity' | 'title'>): Counters {
  return { [agg.alarmsRaised(a.severity)]: 1, [agg.alarmTitle(a.severity, a.title)]: 1 };
}

/** What an Office 365 alarm adds to the stats item (alarms by status). */
export function o365AlarmStats(a: Pick<Office365Alarm, 'status'>): Counters {
  return { [agg.o365Alarms(a.status)]: 1 };
}

/**
 * What one stored device-day adds to its tenant's day item: monitored and available time in whole ms.
 * The day's figure is the one `AvailabilityEntity.read` gives (heartbeat-measured time when present, else
 * the stored % over its monitored seconds), so the fleet figure Σ up / Σ monitored is the same
 * monitored-time-weighted mean as `availabilityPct` (docs/data-model.md#availability), over every device.
 */
export function availabilityDay(d: { availablePct?: number | undefined; monitoredSeconds?: number | undefined; hbUpSeconds?: number | undefined; hbMonitoredSeconds?: number | undefined } | null): Counters {
  if (!d) return {};
  const hbM = Number(d.hbMonitoredSeconds ?? 0);
  const mon = hbM > 0 ? hbM : Number(d.monitoredSeconds ?? 0);
  if (!(mon > 0)) return {};
  const up = hbM > 0 ? Math.min(hbM, Number(d.hbUpSeconds ?? 0)) : (Math.min(100, Math.max(0, Number(d.availablePct ?? 0))) / 100) * mon;
  return { [agg.availMonitoredMs]: Math.round(mon * 1000), [agg.availUpMs]: Math.round(up * 1000) };
}

/**
 * Fleet availability % of the day items `days` (Σ available / Σ monitored time × 100, two decimals), null
 * when no device was monitored on those days.
 */
export function fleetAvailabilityPct(days: Iterable<Counters>): number | null {
  let mon = 0;
  let up = 0;
  for (const c of days) {
    mon += c[agg.availMonitoredMs] ?? 0;
    up += c[agg.availUpMs] ?? 0;
  }
  return mon > 0 ? Math.round((up / mon) * 10_000) / 100 : null;
}

/** Epoch minute of an ISO-8601 instant. */
export const epochMinute = (iso: string): number => Math.floor(Date.parse(iso) / 60_000);

/**
 * What a device adds to the heartbeat histogram: one in its last heartbeat's minute and the heartbeat's
 * offset in that minute (ms, `hbMinuteSum`), or one in `never`.
 */
export function deviceHeartbeat(lastHeartbeatAt: string | null): Counters {
  if (!lastHeartbeatAt) return { [agg.hbNever]: 1 };
  const m = epochMinute(lastHeartbeatAt);
  return { [agg.hbMinute(m)]: 1, [agg.hbMinuteSum(m)]: Date.parse(lastHeartbeatAt) - m * 60_000 };
}

/** `after − before`, without zero entries (what an `ADD` must apply). */
export function delta(before: Counters | null, after: Counters | null): Counters {
  const out: Counters = {};
  for (const [k, v] of Object.entries(after ?? {})) add(out, k, v);
  for (const [k, v] of Object.entries(before ?? {})) add(out, k, -v);
  for (const k of Object.keys(out)) if (out[k] === 0) delete out[k];
  return out;
}

/** Adds `c` into `into` (in place) and returns it. */
export function sumInto(into: Counters, c: Counters): Counters {
  for (const [k, v] of Object.entries(c)) add(into, k, v);
  return into;
}

/** `c` without zero entries (what a rebuilt item stores). */
export function nonZero(c: Counters): Counters {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== 0));
}

/** Minutes of the heartbeat histogram kept one by one; older ones are folded into `old` (all offline). */
export const HB_KEEP_MINUTES = Math.ceil(HEARTBEAT_THRESHOLDS_MS.degraded / 60_000) + 2;

/**
 * Devices by status from the heartbeat histogram at `now`: a minute bucket counts as online when its
 * start is within the online threshold (5 min), degraded within 15 min, offline beyond; `never` is unknown.
 * One-minute resolution: a device whose heartbeat is 5 min 30 s old may show online here and degraded on
 * the list for up to a minute (docs/data-model.md#aggregates).
 */
export function devicesByStatus(hist: Counters, now: Date): Record<DeviceStatus, number> {
  const out = Object.fromEntries(DEVICE_STATUSES.map((s) => [s, 0])) as Record<DeviceStatus, number>;
  for (const [k, v] of Object.entries(hist)) {
    if (k === agg.hbNever) out.unknown += v;
    else if (k === agg.hbOld || k.startsWith('d#')) out.offline += v;
    else if (k.startsWith('m#')) {
      const age = now.getTime() - Number(k.slice(2)) * 60_000;
      out[age <= HEARTBEAT_THRESHOLDS_MS.online ? 'online' : age <= HEARTBEAT_THRESHOLDS_MS.degraded ? 'degraded' : 'offline'] += v;
    }
  }
  return out;
}

/**
 * Devices down in a `devicesByStatus` count: degraded + offline (a device past the online threshold, whose
 * open outage the figures count: docs/data-model.md#outages). The number of outage markers a reader expects.
 */
export function devicesDown(byStatus: Readonly<Record<DeviceStatus, number>>): number {
  return byStatus.degraded + byStatus.offline;
}

/** Minute keys of the histogram older than `HB_KEEP_MINUTES` at `now` (to fold into their day). */
export function staleMinuteKeys(hist: Counters, now: Date): string[] {
  const limit = Math.floor(now.getTime() / 60_000) - HB_KEEP_MINUTES;
  return Object.keys(hist).filter((k) => k.startsWith('m#') && Number(k.slice(2)) < limit);
}

/**
 * Days the heartbeat histogram keeps its day bins (`hbDay`) before `now`'s UTC day: a day bin older folds into
 * `old` (one day more than the outage window, `OUTAGE_MAX_DAYS` = 30, so a reader whose clock is up to a day
 * behind the folder's still finds every day of its window).
 */
export const HB_KEEP_DAYS = 31;

const dayStartMs = (date: string): number => Date.parse(`${date}T00:00:00.000Z`);
const dateOfMs = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The fold of the heartbeat histogram `hist` at `now` (docs/data-model.md#aggregates): each minute older than
 * `HB_KEEP_MINUTES` (at most `maxMinutes` of them) goes into its UTC day's bin — count into `hbDay`, offsets
 * re-based on the day's start into `hbDaySum` (Σ + count × (minute start − day start)) — and each day bin
 * older than `HB_KEEP_DAYS` into `old` (count only). `remove`: the keys to remove (as read), `add`: what to add.
 * Counts and sums are additive, so a device's move out of a minute or day already folded (a negative entry)
 * folds the same way and cancels exactly.
 */
export function histogramFold(hist: Counters, now: Date, maxMinutes = Infinity): { remove: string[]; add: Counters } {
  const remove: string[] = [];
  const add: Counters = {};
  const oldBefore = dateOfMs(now.getTime() - HB_KEEP_DAYS * 86_400_000);
  const limit = Math.floor(now.getTime() / 60_000) - HB_KEEP_MINUTES;
  const minutes = [...new Set(Object.keys(hist).filter((k) => k.startsWith('m#') || k.startsWith('ms#')).map((k) => Number(k.slice(k.indexOf('#') + 1))))]
    .filter((m) => m < limit)
    .sort((a, b) => a - b)
    .slice(0, maxMinutes);
  for (const m of minutes) {
    const count = hist[agg.hbMinute(m)] ?? 0;
    const sum = hist[agg.hbMinuteSum(m)] ?? 0;
    for (const k of [agg.hbMinute(m), agg.hbMinuteSum(m)]) if (k in hist) remove.push(k);
    const date = dateOfMs(m * 60_000);
    if (date < oldBefore) sumInto(add, { [agg.hbOld]: count });
    else sumInto(add, { [agg.hbDay(date)]: count, [agg.hbDaySum(date)]: sum + count * (m * 60_000 - dayStartMs(date)) });
  }
  const days = [...new Set(Object.keys(hist).filter((k) => k.startsWith('d#') || k.startsWith('ds#')).map((k) => k.slice(k.indexOf('#') + 1)))].filter((d) => d < oldBefore);
  for (const date of days) {
    for (const k of [agg.hbDay(date), agg.hbDaySum(date)]) if (k in hist) remove.push(k);
    sumInto(add, { [agg.hbOld]: hist[agg.hbDay(date)] ?? 0 });
  }
  return { remove, add: nonZero(add) };
}

/**
 * The whole open-outage time of the tenant's devices at `now`, per UTC day of the 30 days ending on `now`'s
 * UTC day (ms; days without any left out), from its heartbeat histogram alone (docs/data-model.md#outages):
 * exactly Σ over the devices in an outage of `openOutage(lastHeartbeatAt, now)`. A minute bin is in an outage
 * when `now` is past its start + the online threshold (`outageAfter`); a day bin and `old` always are (folded
 * ≥ 17 min after their heartbeats). Per day D: the devices whose last heartbeat is before D count
 * min(now, end of D) − start of D each; those whose last heartbeat is on D count
 * count × (min(now, end of D) − start of D) − Σ offsets. Integer arithmetic throughout (exact).
 */
export function histogramOutage(hist: Counters, now: Date): Map<string, number> {
  const t = now.getTime();
  const today = dateOfMs(t);
  const first = dateOfMs(dayStartMs(today) - (OUTAGE_MAX_DAYS - 1) * 86_400_000);
  let before = 0;
  const on = new Map<string, { count: number; sum: number }>();
  const put = (date: string, count: number, sum: number) => {
    const cur = on.get(date) ?? { count: 0, sum: 0 };
    on.set(date, { count: cur.count + count, sum: cur.sum + sum });
  };
  for (const [k, v] of Object.entries(hist)) {
    if (k === agg.hbOld) before += v;
    else if (k.startsWith('m#')) {
      const m = Number(k.slice(2));
      if (!(t > m * 60_000 + HEARTBEAT_THRESHOLDS_MS.online)) continue;
      const date = dateOfMs(m * 60_000);
      put(date, v, (hist[agg.hbMinuteSum(m)] ?? 0) + v * (m * 60_000 - dayStartMs(date)));
    } else if (k.startsWith('d#')) put(k.slice(2), v, hist[agg.hbDaySum(k.slice(2))] ?? 0);
    // A sum whose count is absent (moves that cancelled out in count): its offsets alone.
    else if (k.startsWith('ms#') && !(agg.hbMinute(Number(k.slice(3))) in hist)) {
      const m = Number(k.slice(3));
      if (t > m * 60_000 + HEARTBEAT_THRESHOLDS_MS.online) put(dateOfMs(m * 60_000), 0, v);
    } else if (k.startsWith('ds#') && !(agg.hbDay(k.slice(3)) in hist)) put(k.slice(3), 0, v);
  }
  for (const [date, c] of on) if (date < first) before += c.count;
  const out = new Map<string, number>();
  for (let d = first; d <= today; d = dateOfMs(dayStartMs(d) + 86_400_000)) {
    const start = dayStartMs(d);
    const span = Math.min(t, start + 86_400_000) - start;
    const own = on.get(d);
    const ms = before * span + (own ? own.count * span - own.sum : 0);
    if (ms > 0) out.set(d, ms);
    before += own?.count ?? 0;
  }
  return out;
}

/** Resolution-SLA figures of one severity: resolved, resolved within the SLA (`met`), late (`breached`), met / resolved × 100 (two decimals; null when none resolved). */
export interface SeveritySla {
  resolved: number;
  met: number;
  breached: number;
  compliancePct: number | null;
}

/**
 * SLA compliance per severity of summed day/hour counters `c` (`slaResolved`, `slaMetBy`; docs/sla.md: the
 * incidents created in the period and resolved, as the report's `sla`), every severity present.
 */
export function slaBySeverity(c: Counters): Record<Severity, SeveritySla> {
  return Object.fromEntries(
    SEVERITIES.map((s) => {
      const resolved = c[agg.slaResolved(s)] ?? 0;
      const met = c[agg.slaMetBy(s)] ?? 0;
      return [s, { resolved, met, breached: resolved - met, compliancePct: resolved ? Math.round((met / resolved) * 10_000) / 100 : null }];
    }),
  ) as Record<Severity, SeveritySla>;
}

/** Incident counts of the stats item by status and by severity, every status and severity present. */
export function incidentCounts(stats: Counters): { byStatus: Record<(typeof INCIDENT_STATUSES)[number], number>; bySeverity: Record<Severity, number>; openBySeverity: Record<Severity, number> } {
  const byStatus = Object.fromEntries(INCIDENT_STATUSES.map((s) => [s, 0])) as Record<(typeof INCIDENT_STATUSES)[number], number>;
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  const openBySeverity = { ...bySeverity };
  for (const st of INCIDENT_STATUSES)
    for (const sev of SEVERITIES) {
      const n = stats[agg.incidents(st, sev)] ?? 0;
      byStatus[st] += n;
      bySeverity[sev] += n;
      if (st !== 'resolved' && st !== 'closed') openBySeverity[sev] += n;
    }
  return { byStatus, bySeverity, openBySeverity };
}
