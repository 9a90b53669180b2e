/**
 * Ingest silence of a tenant (docs/platform.md#alarms, "ingest silence"): whether every device of the tenant
 * that ever sent a heartbeat has gone quiet, read from the tenant's heartbeat histogram alone
 * (`TENANT#<t>` / `STATS#HB`, devices by the UTC minute of their last heartbeat; docs/data-model.md#aggregates),
 * so the SLA job decides it with one read per tenant whatever the number of devices, and no per-device read.
 */
import { devicesByStatus, type Counters } from './aggregates.js';
import { HEARTBEAT_THRESHOLDS_MS } from './devices.js';

/**
 * Minutes without any heartbeat from a tenant after which it is silent: the degraded threshold (15 min,
 * `HEARTBEAT_THRESHOLDS_MS.degraded`), i.e. every device of the tenant offline. The histogram keeps minute
 * resolution up to `HB_KEEP_MINUTES` (17), so a longer wait is counted by the alarm's periods instead.
 */
export const SILENT_TENANT_MINUTES = HEARTBEAT_THRESHOLDS_MS.degraded / 60_000;

/**
 * How a tenant's collectors stand at `now`, from its heartbeat histogram `hist`:
 *  - `none`: no device ever sent a heartbeat (a new tenant, or one without collectors yet) — never silent;
 *  - `beating`: at least one device sent one within `SILENT_TENANT_MINUTES` (online or degraded);
 *  - `silent`: devices sent heartbeats before, none within `SILENT_TENANT_MINUTES` (all offline).
 */
export function tenantSilence(hist: Counters, now: Date): 'none' | 'beating' | 'silent' {
  const s = devicesByStatus(hist, now);
  if (s.online + s.degraded > 0) return 'beating';
  return s.offline > 0 ? 'silent' : 'none';
}
