/**
 * Rules of the SOC queue's order (docs/sla.md#soc-queue): what "SLA at risk" means in the queue, and the
 * sort and tab names of `GET /soc/queue`. The storage (rank prefix of the sort key, partitions, counts) is in
 * lambdas/data/incidents.ts and lambdas/data/entities.ts (`socQueuePlace`).
 */

/**
 * An open incident is **at risk** in the queue when its SLA resolution deadline is at most this many minutes
 * away, or already passed (`minutesToBreach ≤ 60`). A fixed horizon, so the incidents at risk are always the
 * first of the triaged open work in SLA due-time order: the ranked sort key needs no time-based part, no job
 * re-keys it and no read merges Queries (docs/sla.md#soc-queue). 60 min = a quarter of the shortest default
 * resolution target (critical, 240 min; docs/sla.md#targets).
 */
export const SOC_AT_RISK_MINUTES = 60;

/** Whether an open incident `minutesToBreach` minutes from its deadline (negative: breached) is at risk (see `SOC_AT_RISK_MINUTES`). */
export function socAtRisk(minutesToBreach: number): boolean {
  return minutesToBreach <= SOC_AT_RISK_MINUTES;
}
