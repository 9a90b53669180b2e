/**
 * Upgrades a stage table's data written by earlier versions (idempotent; docs/sla.md#upgrade): fills the
 * incidents' SLA fields and adds the open ones to the SOC queue index (`upgradeIncidents` from lambdas/data),
 * puts incidents in the status index and their titles' words in the search index, and keys devices by their
 * folded name (`upgradeSearchIndex`, docs/data-model.md#search), puts open incidents in their tenant's and
 * assignee's SOC queues (`upgradeSocQueueIndexes`, docs/sla.md#soc-queue), copies device names onto alarms stored without
 * them (`upgradeAlarmDeviceNames`, docs/data-model.md#alarm-device-names), dates the automatic closure of incidents
 * resolved before it existed (`upgradeAutoClose`, docs/sla.md#automatic-closure), writes the staff alarm console entries of
 * alarms and Office 365 alerts stored before it (`upgradeAlarmConsole`, docs/data-model.md#alarm-console), then builds missing aggregates.
 * Run once after deploying the version that adds them; running it again changes nothing.
 *
 *   npm run platform:upgrade-data -- --stage prod
 *   # local stack (npm start also runs it on an existing .local/ state):
 *   npm run platform:upgrade-data -- --table vigia-local-main --region us-east-1 --dynamodb-endpoint http://127.0.0.1:8000
 */
import { upgradeAggregates, upgradeAlarmConsole, upgradeAlarmDeviceNames, upgradeAlarmSearch, upgradeAutoClose, upgradeCommentSearch, upgradeIncidents, upgradeO365UserSearch, upgradeSearchIndex, upgradeSocQueueIndexes } from '../../lambdas/data/migrations.js';
import { TABLE_OPTIONS, tableFromOptions } from './aws.js';
import { parse, progress, runCli } from './cli.js';

export const USAGE = `
Usage: tsx scripts/platform/upgrade-data.ts (--stage <stage> | --table <name>)

Fills the SLA fields of incidents stored before them (targets, first acknowledgement, closure, SLA result)
and puts the open ones in the SOC queue, then builds the write-time aggregates of every tenant that has
none yet (docs/data-model.md#aggregates). Idempotent.

Options:
  --stage               deployed stage: table from the Vigia-<stage>-Data outputs
  --table               table name (instead of --stage)
  --dynamodb-endpoint   DynamoDB endpoint override (local stack)
  --region              AWS region (default $AWS_REGION)
  -h, --help            this text
`;

export async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    ...TABLE_OPTIONS,
  });
  if (!p) return 'help';
  const log = progress('upgrade-data');
  const { table, tableName } = await tableFromOptions(p);
  try {
    const incidents = await upgradeIncidents(table);
    log(`${incidents} incident(s) upgraded in ${tableName}`);
    const search = await upgradeSearchIndex(table);
    log(`search index: ${search.incidents} incident(s) and ${search.devices} device(s) indexed`);
    const commentWords = await upgradeCommentSearch(table);
    log(`comment search: ${commentWords} word item(s) written for comments stored before it`);
    const alarmWords = await upgradeAlarmSearch(table);
    log(`alarm search: ${alarmWords} word item(s) written for alarms stored before it`);
    const o365Users = await upgradeO365UserSearch(table);
    log(`Office 365 user search: ${o365Users} entr(ies) written for alerts stored before it`);
    const socQueue = await upgradeSocQueueIndexes(table);
    log(`SOC queue: ${socQueue.tenantQueue} open incident(s) put in their tenant's queue, ${socQueue.queueEntries} queue entr(ies) written and counted, ${socQueue.resolvedMoved} resolved incident(s) moved to the resolved tab`);
    const autoClose = await upgradeAutoClose(table);
    log(`${autoClose} resolved incident(s) given their automatic closure date`);
    const alarmNames = await upgradeAlarmDeviceNames(table);
    log(`${alarmNames} alarm(s) given their device's name`);
    const alarmConsole = await upgradeAlarmConsole(table);
    log(`alarm console: ${alarmConsole} alarm(s)/alert(s) given their entries`);
    const rebuilt = await upgradeAggregates(table);
    log(`aggregates built for ${rebuilt.length} tenant(s)${rebuilt.length ? `: ${rebuilt.join(', ')}` : ''}`);
    process.stdout.write(`${JSON.stringify({ table: tableName, incidentsUpgraded: incidents, searchIndexed: search, socQueueIndexed: socQueue, autoCloseDated: autoClose, alarmDeviceNames: alarmNames, alarmConsoleEntries: alarmConsole, aggregatesBuilt: rebuilt })}\n`);
  } finally {
    table.doc.destroy();
  }
}

runCli(import.meta.url, USAGE, main);
