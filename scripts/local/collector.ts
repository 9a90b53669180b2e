/**
 * Collector simulator for the local stack: plays the security company's collectors against the local
 * API's ingest routes (SigV4-signed with the local collector access key, exactly as a real collector
 * signs for AuthorizationType.IAM), so the portal shows live data:
 *  - every `intervalMs` (default 15 s) each reporting demo device sends a heartbeat (`POST /ingest/heartbeats`);
 *  - now and then a device goes down: its heartbeats stop and a `critical` "Sin latido del dispositivo" alarm
 *    (the catalogue's `heartbeat_lost` type, `lambdas/domain/alarm-types.ts`) is raised
 *    (`POST /ingest/device-alarms`, action raise); after a few ticks it recovers: heartbeats resume and the
 *    alarm is cleared (action clear);
 *  - each tick, 1–3 Office 365 audit events per tenant arrive (`POST /ingest/office365/events`), and now
 *    and then an Office 365 alert (`POST /ingest/office365/alarms`);
 *  - on the first tick, a fixed set of recommendations per tenant (`POST /ingest/recommendations`; fixed
 *    ids, so restarts replay them as no-ops).
 * Every event has a unique `eventId`; the API treats replays as no-ops. An event the API refuses for a
 * while — 429, 5xx (such as 503 SERVICE_UNAVAILABLE while the table throttles or is unreachable) or no
 * answer — is kept (at most `MAX_PENDING`, oldest dropped first) and sent again, same body and `eventId`, at
 * the start of the next tick, as a real collector must (docs/api.md#errors); a 4xx other than 429 is final.
 *
 * Started by `startLocalStack` unless `collector: false` (tests) / `npm start -- --no-collector`.
 * Run alone against a running stack: `npx tsx scripts/local/collector.ts http://127.0.0.1:3001`.
 */
import { randomUUID } from 'node:crypto';
import { LOCAL_COLLECTOR_CREDENTIAL, signCollectorRequest, type CollectorCredential } from './collector-auth.js';
import { DEMO_RECOMMENDATIONS, DEMO_TENANTS, demoDevices, O365_ALERTS, O365_OPERATIONS, O365_USERS, o365Result } from './demo-data.js';
import { DEVICE_ALARM_TYPES } from '../../lambdas/domain/alarm-types.js';

/** The alarm an outage raises: the catalogue's lost-heartbeat type, the same title the seed uses. */
const HEARTBEAT_LOST = DEVICE_ALARM_TYPES.heartbeat_lost;

export interface CollectorOptions {
  /** Base URL of the API (local gateway), no trailing slash. */
  apiUrl: string;
  credential?: CollectorCredential;
  /** Tick period, ms (default 15 000). */
  intervalMs?: number;
  /** Probability per tick that one more device goes down (default 0.15). */
  outageProbability?: number;
  /** Ticks an outage lasts (default 8, i.e. 2 min at 15 s: long enough to show `degraded`/alarms). */
  outageTicks?: number;
  /** Random source in [0,1) (tests pass a seeded one). */
  random?: () => number;
  /** Devices to simulate; default the reporting demo devices. */
  devices?: { tenantId: string; id: string }[];
  log?: (line: string) => void;
}

export interface RunningCollector {
  /** Runs one tick now (tests); resolves when its requests are done. */
  tick(): Promise<TickReport>;
  stop(): Promise<void>;
}

export interface TickReport {
  heartbeats: number;
  raised: number;
  cleared: number;
  /** Office 365 events + alerts and recommendations sent. */
  office365: number;
  recommendations: number;
  /** Non-2xx answers (should stay 0). */
  failures: number;
  /** Events kept from earlier ticks and sent again at the start of this one. */
  retried: number;
  /** Events kept for the next tick after this one (refused with 429/5xx or unanswered). */
  pending: number;
}

/** Most refused events kept for a later retry; older ones are dropped first. */
export const MAX_PENDING = 1000;

/** Whether an ingest answer (or `null`: no answer) means "try the same event again later". */
export function isRetryable(status: number | null): boolean {
  return status === null || status === 429 || status >= 500;
}


/** The demo devices that report heartbeats (heartbeat age under an hour at seed time). */
export function reportingDemoDevices(now = Date.now()): { tenantId: string; id: string }[] {
  return DEMO_TENANTS.flatMap((t) => demoDevices(t, now))
    .filter((d) => d.heartbeatAgeMinutes !== null && d.heartbeatAgeMinutes < 60)
    .map((d) => ({ tenantId: d.tenantId, id: d.id }));
}

/** POSTs a signed JSON event to an ingest route; returns the HTTP status. */
export async function sendIngest(apiUrl: string, path: string, body: unknown, credential = LOCAL_COLLECTOR_CREDENTIAL): Promise<number> {
  const url = `${apiUrl}${path}`;
  const text = JSON.stringify(body);
  const headers = await signCollectorRequest(credential, { method: 'POST', url, body: text, headers: { 'content-type': 'application/json' } });
  const res = await fetch(url, { method: 'POST', headers, body: text });
  await res.arrayBuffer();
  return res.status;
}

/** Starts the simulator (first tick immediately, then every `intervalMs`). */
export function startCollector(opts: CollectorOptions): RunningCollector {
  const credential = opts.credential ?? LOCAL_COLLECTOR_CREDENTIAL;
  const random = opts.random ?? Math.random;
  const devices = opts.devices ?? reportingDemoDevices();
  const outages = new Map<string, { alarmId: string; ticksLeft: number; device: { tenantId: string; id: string } }>();
  const log = opts.log ?? (() => undefined);
  let running: Promise<TickReport> | null = null;
  let recommendationsSent = false;

  const pending: { path: string; body: unknown }[] = [];

  const send = async (path: string, body: unknown, report: TickReport) => {
    let status: number | null;
    try {
      status = await sendIngest(opts.apiUrl, path, body, credential);
    } catch {
      status = null;
    }
    if (status !== null && status < 300) return;
    report.failures++;
    if (isRetryable(status)) {
      pending.push({ path, body });
      if (pending.length > MAX_PENDING) pending.splice(0, pending.length - MAX_PENDING);
    }
  };

  const tickOnce = async (): Promise<TickReport> => {
    const report: TickReport = { heartbeats: 0, raised: 0, cleared: 0, office365: 0, recommendations: 0, failures: 0, retried: 0, pending: 0 };
    // events refused earlier, oldest first, before anything new
    for (const e of pending.splice(0, pending.length)) {
      report.retried++;
      await send(e.path, e.body, report);
    }
    const at = new Date().toISOString();
    // recoveries
    for (const [key, o] of outages) {
      if (--o.ticksLeft > 0) continue;
      outages.delete(key);
      await send('/ingest/device-alarms', { action: 'clear', eventId: randomUUID(), tenantId: o.device.tenantId, deviceId: o.device.id, alarmId: o.alarmId, at }, report);
      report.cleared++;
      log(`collector: ${o.device.tenantId}/${o.device.id} recovered`);
    }
    // a new outage
    const up = devices.filter((d) => !outages.has(`${d.tenantId}/${d.id}`));
    if (up.length > 1 && random() < (opts.outageProbability ?? 0.15)) {
      const d = up[Math.floor(random() * up.length)]!;
      const alarmId = `sim-${Date.now().toString(36)}-${Math.floor(random() * 1e6).toString(36)}`;
      outages.set(`${d.tenantId}/${d.id}`, { alarmId, ticksLeft: opts.outageTicks ?? 8, device: d });
      await send(
        '/ingest/device-alarms',
        { action: 'raise', eventId: randomUUID(), tenantId: d.tenantId, deviceId: d.id, alarmId, severity: HEARTBEAT_LOST.severity, title: HEARTBEAT_LOST.title, at },
        report,
      );
      report.raised++;
      log(`collector: ${d.tenantId}/${d.id} went down (alarm ${alarmId})`);
    }
    // Office 365 activity per tenant, and the recommendations once
    for (const tenantId of [...new Set(devices.map((d) => d.tenantId))]) {
      const n = 1 + Math.floor(random() * 3);
      for (let i = 0; i < n; i++) {
        const op = O365_OPERATIONS[Math.floor(random() * O365_OPERATIONS.length)]!;
        const user = `${O365_USERS[Math.floor(random() * O365_USERS.length)]}@${tenantId}.example`;
        await send(
          '/ingest/office365/events',
          { eventId: randomUUID(), tenantId, workload: op[0], operation: op[1], user, result: o365Result(op[1], random, 0.15), clientIp: `203.0.113.${1 + Math.floor(random() * 250)}`, at },
          report,
        );
        report.office365++;
      }
      if (random() < (opts.outageProbability ?? 0.15) / 2) {
        const a = O365_ALERTS[Math.floor(random() * O365_ALERTS.length)]!;
        const user = `${O365_USERS[Math.floor(random() * O365_USERS.length)]}@${tenantId}.example`;
        await send(
          '/ingest/office365/alarms',
          { eventId: randomUUID(), tenantId, alarmId: `o365-${randomUUID()}`, title: a[0], severity: a[1], category: a[2], status: 'active', affectedUser: user, detectedAt: at, updatedAt: at },
          report,
        );
        report.office365++;
      }
      if (!recommendationsSent) {
        for (const [k, r] of DEMO_RECOMMENDATIONS.entries()) {
          await send(
            '/ingest/recommendations',
            { eventId: randomUUID(), tenantId, recommendationId: `rec-demo-${tenantId}-${k + 1}`, title: r[0], rationale: r[1], priority: r[2], category: r[3], at },
            report,
          );
          report.recommendations++;
        }
      }
    }
    recommendationsSent = true;
    // heartbeats of the devices that are up
    const beating = devices.filter((d) => !outages.has(`${d.tenantId}/${d.id}`));
    await Promise.all(beating.map((d) => send('/ingest/heartbeats', { eventId: randomUUID(), tenantId: d.tenantId, deviceId: d.id, at }, report)));
    report.heartbeats += beating.length;
    report.pending = pending.length;
    return report;
  };

  const tick = (): Promise<TickReport> => {
    running = (running ?? Promise.resolve(null as unknown as TickReport)).then(tickOnce, tickOnce);
    return running;
  };
  const timer = setInterval(() => void tick().catch(() => undefined), opts.intervalMs ?? 15_000);
  timer.unref();
  void tick().catch(() => undefined);
  return {
    tick,
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const apiUrl = process.argv[2] ?? 'http://127.0.0.1:3001';
  const { localSettingsFromEnv } = await import('./config.js');
  startCollector({ apiUrl, credential: localSettingsFromEnv(process.env).collectorCredential, log: (l) => console.log(l) });
  setInterval(() => undefined, 1 << 30);
}
