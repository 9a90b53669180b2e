/**
 * The SLA job (docs/notifications.md#sla-job): every few minutes (in AWS an EventBridge schedule rule,
 * `infra/sla-watch.ts`; locally a timer of `npm start`, `scripts/local/start.ts`) writes the `sla.at_risk` /
 * `sla.breached` activity events of every tenant's open incidents that crossed a threshold
 * (`runSlaWatch` in `lambdas/data/activity.ts`: one paged Query of the SOC queue index, then one conditional
 * PutItem per due event, so a repeated or concurrent run writes nothing twice), and re-keys the devices
 * below the availability target whose index entry is of an earlier UTC day (`rekeyBelowSlaIndexes`).
 *
 * Configuration: the Lambda environment (`lambdaConfigFromEnv`: table name, region, endpoint). Errors are
 * thrown (the invocation fails and EventBridge's retry policy runs it again: idempotent).
 */
import { lambdaConfigFromEnv } from '../config.js';
import { createDocumentClient, type TableRef } from '../data/index.js';
import { runSlaWatch } from '../data/activity.js';
import { rekeyBelowSlaIndexes } from '../data/devices.js';

let table: TableRef | undefined;

/**
 * Runs the SLA job once at `now` on `table`; returns what it read and wrote (logged by the caller). It also
 * re-keys each tenant's below-SLA index entries of an earlier day (`rekeyBelowSlaIndexes`,
 * docs/data-model.md, "Devices below the SLA target"): `belowSlaRekeyed` entries moved.
 */
export async function slaWatch(tableRef: TableRef, now: Date = new Date()): Promise<{ incidents: number; written: number; belowSlaRekeyed: number }> {
  const sla = await runSlaWatch(now, tableRef);
  return { ...sla, belowSlaRekeyed: await rekeyBelowSlaIndexes(tableRef, now) };
}

/** EventBridge scheduled-event entry point. */
export async function handler(): Promise<{ incidents: number; written: number; belowSlaRekeyed: number }> {
  if (!table) {
    const config = lambdaConfigFromEnv(process.env);
    table = { doc: createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), tableName: config.tableName };
  }
  const result = await slaWatch(table);
  console.log(JSON.stringify({ level: 'INFO', message: 'sla-watch', ...result }));
  return result;
}
