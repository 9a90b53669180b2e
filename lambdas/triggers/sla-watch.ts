/**
 * The SLA job (docs/notifications.md#sla-job): every few minutes (in AWS an EventBridge schedule rule,
 * `infra/sla-watch.ts`; locally a timer of `npm start`, `scripts/local/start.ts`) writes the `sla.at_risk` /
 * `sla.breached` activity events of every tenant's open incidents that crossed a threshold
 * (`runSlaWatch` in `lambdas/data/activity.ts`: one paged Query of the SOC queue index, then one conditional
 * PutItem per due event, so a repeated or concurrent run writes nothing twice), and re-keys the devices
 * below the availability target whose index entry is of an earlier UTC day (`rekeyBelowSla`, per tenant), and
 * finds the silent tenants (`findSilentTenants`: every device that ever sent a heartbeat silent for
 * `SILENT_TENANT_MINUTES`, from the tenants' heartbeat histograms, BatchGetItem of 100 at a time, no per-device
 * read), published as `Vigia/<stage> SilentTenants` / `WatchedTenants` / `TenantSilent` (`job-metrics.ts`; the
 * ingest-silence alarms, docs/platform.md#alarms) with one `WARN` line per silent tenant, and from the same
 * histograms brings the outage markers of each tenant with a device down in line (`markOutages`,
 * docs/data-model.md#outage-markers: the devices down the summary, reports and analytics read).
 *
 * Configuration: the Lambda environment (`lambdaConfigFromEnv`: stage, table name, region, endpoint, log level).
 *
 * Errors (docs/platform.md#alarms): a failing step — the SLA events, the tenant list, one tenant's re-key —
 * is logged as an `ERROR` line (step, tenant, error) and the job goes on with the next one, so one tenant's
 * fault delays no other tenant. The run's failure count is published as the EMF metric `Vigia/<stage>
 * JobFailures` (`service` = `vigia-sla-watch`, `job-metrics.ts`; the `SlaWatchJobFailures` alarm), and a run
 * with failures then throws {@link SlaWatchIncomplete}: the invocation fails, EventBridge's asynchronous
 * retries run it again (idempotent) and the function's `Errors` alarm sees it too.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { lambdaConfigFromEnv } from '../config.js';
import { createDocumentClient, type TableRef } from '../data/index.js';
import { runSlaWatch } from '../data/activity.js';
import { AUTO_CLOSE_PAGE, incidentsRepository, listAutoCloseDue } from '../data/incidents.js';
import { autoCloseIncident } from '../domain/incidents.js';
import { rekeyBelowSla } from '../data/devices.js';
import { markOutages } from '../data/outages.js';
import type { Counters } from '../domain/aggregates.js';
import { listTenants } from '../data/tenants.js';
import { keys } from '../data/table/keys.js';
import { batchGetAll } from '../data/table/dynamo-util.js';
import { countersOf } from '../data/aggregates.js';
import { SILENT_TENANT_MINUTES, tenantSilence } from '../domain/silence.js';
import { createLogger } from '../http/logger.js';
import { JOB_SERVICES, publishJobFailures, publishSilentTenants } from './job-metrics.js';

/** What one run read, wrote and failed on. */
export interface SlaWatchOutcome {
  /** Open incidents read from the SOC queue index. */
  incidents: number;
  /** SLA activity events written. */
  written: number;
  /** Below-SLA index entries moved to today. */
  belowSlaRekeyed: number;
  /** Tenants with at least one device that ever sent a heartbeat (`tenantSilence` not `none`). */
  watchedTenants: number;
  /** Tenants whose devices all went silent (`tenantSilence` = `silent`), by id. */
  silentTenants: string[];
  /** Outage markers written and deleted (`markOutages`, docs/data-model.md#outage-markers). */
  outagesMarked: number;
  outagesUnmarked: number;
  /** Resolved incidents closed automatically (docs/sla.md#automatic-closure). */
  autoClosed: number;
  /** Due incidents a concurrent change (the customer's confirmation, a reopening) took first: left as they are. */
  autoCloseLost: number;
  /** Steps that failed (the SLA events, the tenant list, each tenant's re-key, the silence check, each tenant's outage markers, the automatic closure). */
  failures: number;
}

/** A failed step of a run: `step` and, for a re-key, the tenant. */
export type SlaWatchErrorHandler = (e: unknown, where: { step: 'sla-events' | 'list-tenants' | 'rekey-below-sla' | 'silence' | 'mark-outages' | 'auto-close'; tenantId?: string }) => void;

/** Thrown by {@link runSlaWatchJob} when a run had failures (after finishing every other step). */
export class SlaWatchIncomplete extends Error {
  override readonly name = 'SlaWatchIncomplete';
}

/**
 * Runs the SLA job once at `now` on `table`: the SLA events, then each registered tenant's below-SLA re-key
 * (docs/data-model.md, "Devices below the SLA target"). A failing step goes to `onError` and counts in
 * `failures`; the others still run. Never throws for a storage error.
 */
export async function slaWatch(tableRef: TableRef, now: Date = new Date(), onError: SlaWatchErrorHandler = () => {}): Promise<SlaWatchOutcome> {
  const out: SlaWatchOutcome = { incidents: 0, written: 0, belowSlaRekeyed: 0, watchedTenants: 0, silentTenants: [], outagesMarked: 0, outagesUnmarked: 0, autoClosed: 0, autoCloseLost: 0, failures: 0 };
  try {
    Object.assign(out, await runSlaWatch(now, tableRef));
  } catch (e) {
    out.failures++;
    onError(e, { step: 'sla-events' });
  }
  let tenants: { id: string }[] = [];
  try {
    tenants = await listTenants(tableRef);
  } catch (e) {
    out.failures++;
    onError(e, { step: 'list-tenants' });
  }
  for (const { id } of tenants) {
    try {
      out.belowSlaRekeyed += await rekeyBelowSla(id, tableRef, now);
    } catch (e) {
      out.failures++;
      onError(e, { step: 'rekey-below-sla', tenantId: id });
    }
  }
  let histograms = new Map<string, Counters>();
  try {
    histograms = await readHeartbeatHistograms(tableRef, tenants.map((t) => t.id));
    Object.assign(out, silenceOf(histograms, now));
  } catch (e) {
    out.failures++;
    onError(e, { step: 'silence' });
  }
  // The outage markers of the tenants with a device down (docs/data-model.md#outage-markers).
  for (const [id, hist] of histograms) {
    try {
      const r = await markOutages(id, hist, now, tableRef);
      out.outagesMarked += r.marked;
      out.outagesUnmarked += r.unmarked;
    } catch (e) {
      out.failures++;
      onError(e, { step: 'mark-outages', tenantId: id });
    }
  }
  try {
    Object.assign(out, await closeDueIncidents(tableRef, now));
  } catch (e) {
    out.failures++;
    onError(e, { step: 'auto-close' });
  }
  return out;
}

/** Pages of due incidents one run closes at most (10 × 100); the rest are still due at the next run. */
export const AUTO_CLOSE_MAX_PAGES = 10;

/**
 * The automatic closure (docs/sla.md#automatic-closure): every tenant's resolved incidents due to close at
 * `now`, read from the `AUTOCLOSE` index (`listAutoCloseDue`: one Query per page of 100, only due entries, no
 * Scan), each closed by `autoCloseIncident` — one transaction conditioned on the version read, with its history
 * entry, `incident.auto_close` audit entry and `incident.closed` activity event (the outbox delivers it to the
 * bell, e-mail and webhook), and the entry's Delete. A run twice closes once (the closed incident has no
 * entry, and a re-read incident that is closed is not due); a customer's confirmation that wins the race is
 * kept and counted in `autoCloseLost`.
 */
export async function closeDueIncidents(table: TableRef, now: Date): Promise<{ autoClosed: number; autoCloseLost: number }> {
  const port = incidentsRepository(table);
  let autoClosed = 0;
  let autoCloseLost = 0;
  let start: Record<string, unknown> | undefined;
  for (let page = 0; page < AUTO_CLOSE_MAX_PAGES; page++) {
    const { items, next } = await listAutoCloseDue(table, now, AUTO_CLOSE_PAGE, start);
    for (const e of items) {
      const r = await autoCloseIncident(port, e.tenantId, e.incidentId, now);
      if (r === 'closed') autoClosed++;
      else if (r === 'lost') autoCloseLost++;
    }
    if (!next) break;
    start = next;
  }
  return { autoClosed, autoCloseLost };
}

/**
 * The silent and watched tenants among `tenantIds` at `now` (`tenantSilence` of each one's heartbeat
 * histogram `TENANT#<t>` / `STATS#HB`): BatchGetItem of up to 100 histograms (~0.3 KB each, eventually
 * consistent: 0.5 RCU each), unprocessed keys asked again (`batchGetAll`). A tenant without a histogram item
 * has no device: not watched.
 */
export async function findSilentTenants(table: TableRef, tenantIds: readonly string[], now: Date): Promise<{ watchedTenants: number; silentTenants: string[] }> {
  return silenceOf(await readHeartbeatHistograms(table, tenantIds), now);
}

/**
 * The heartbeat histograms of `tenantIds` (`TENANT#<t>` / `STATS#HB`), by tenant id: BatchGetItem of up to 100
 * (~0.3 KB each, eventually consistent: 0.5 RCU each), unprocessed keys asked again (`batchGetAll`). A tenant
 * without a histogram item (no device) is absent.
 */
export async function readHeartbeatHistograms(table: TableRef, tenantIds: readonly string[]): Promise<Map<string, Counters>> {
  const out = new Map<string, Counters>();
  for (const item of await batchGetAll(table, tenantIds.map((t) => keys.heartbeatStats(t)))) out.set(String(item.PK).slice('TENANT#'.length), countersOf(item));
  return out;
}

/** The watched and silent tenants (`tenantSilence`) of the histograms `histograms` at `now`, silent ones sorted by id. */
export function silenceOf(histograms: ReadonlyMap<string, Counters>, now: Date): { watchedTenants: number; silentTenants: string[] } {
  let watchedTenants = 0;
  const silentTenants: string[] = [];
  for (const [tenantId, hist] of histograms) {
    const state = tenantSilence(hist, now);
    if (state === 'none') continue;
    watchedTenants++;
    if (state === 'silent') silentTenants.push(tenantId);
  }
  return { watchedTenants, silentTenants: silentTenants.sort() };
}

/**
 * One scheduled run as the Lambda does it: {@link slaWatch} with each failure logged as an error, the run's
 * `JobFailures` published for `stage`, the outcome logged.
 * @throws SlaWatchIncomplete when the run had failures (the retry and the `Errors` alarm then see it)
 */
export async function runSlaWatchJob(tableRef: TableRef, stage: string, logger: Logger, now: Date = new Date()): Promise<SlaWatchOutcome> {
  const out = await slaWatch(tableRef, now, (e, where) => logger.error('sla-watch step failed', { ...where, error: e as Error }));
  publishJobFailures(stage, JOB_SERVICES.slaWatch, out.failures);
  publishSilentTenants(stage, out.watchedTenants, out.silentTenants);
  for (const tenantId of out.silentTenants) logger.warn('tenant silent', { tenantId, minutes: SILENT_TENANT_MINUTES });
  logger.info('sla-watch', { ...out, silentTenants: out.silentTenants.length });
  if (out.failures > 0) throw new SlaWatchIncomplete(`sla-watch: ${out.failures} failed step(s), see the ERROR lines above`);
  return out;
}

let job: { table: TableRef; stage: string; logger: Logger } | undefined;

/** EventBridge scheduled-event entry point. */
export async function handler(): Promise<SlaWatchOutcome> {
  if (!job) {
    const config = lambdaConfigFromEnv(process.env);
    job = {
      table: { doc: createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), tableName: config.tableName },
      stage: config.stage,
      logger: createLogger({ serviceName: JOB_SERVICES.slaWatch, logLevel: config.logLevel }),
    };
  }
  return runSlaWatchJob(job.table, job.stage, job.logger);
}
