/**
 * The SLA job (docs/notifications.md#sla-job): every few minutes (in AWS an EventBridge schedule rule,
 * `infra/sla-watch.ts`; locally a timer of `npm start`, `scripts/local/start.ts`) writes the `sla.at_risk` /
 * `sla.breached` activity events of every tenant's open incidents that crossed a threshold
 * (`runSlaWatch` in `lambdas/data/activity.ts`: one paged Query of the SOC queue index, then one conditional
 * PutItem per due event, so a repeated or concurrent run writes nothing twice).
 *
 * Configuration: the Lambda environment (`lambdaConfigFromEnv`: table name, region, endpoint). Errors are
 * thrown (the invocation fails and EventBridge's retry policy runs it again: idempotent).
 */
import { lambdaConfigFromEnv } from '../config.js';
import { createDocumentClient, type TableRef } from '../data/index.js';
import { runSlaWatch } from '../data/activity.js';

let table: TableRef | undefined;

/** Runs the SLA job once at `now` on `table`; returns what it read and wrote (logged by the caller). */
export function slaWatch(tableRef: TableRef, now: Date = new Date()): Promise<{ incidents: number; written: number }> {
  return runSlaWatch(now, tableRef);
}

/** EventBridge scheduled-event entry point. */
export async function handler(): Promise<{ incidents: number; written: number }> {
  if (!table) {
    const config = lambdaConfigFromEnv(process.env);
    table = { doc: createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), tableName: config.tableName };
  }
  const result = await slaWatch(table);
  console.log(JSON.stringify({ level: 'INFO', message: 'sla-watch', ...result }));
  return result;
}
