/**
 * `devicesInOutage` (lambdas/data/outages.ts) reads one Query of days per device in an outage whose roll-up
 * cannot give its figure (stale, or of the old shape): a site-wide outage is hundreds of devices, and all of
 * those Queries at once exhausted the process's sockets in the scale bench (EMFILE / ECONNRESET → 502 on GET
 * /summary and /analytics). Over the real engine: 60 devices down with stale roll-ups, every one returned with
 * its days, never more than 8 requests in flight.
 */
import { expect, it } from 'vitest';
import { useDynamoTable } from '../support/dynamo-table.js';
import { wrapTableClient, type DocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { putDailyAvailability, putDevice } from '../../lambdas/data/devices.js';
import { devicesInOutage } from '../../lambdas/data/outages.js';
import { putTenant } from '../../lambdas/data/tenants.js';
import { keys } from '../../lambdas/data/table/keys.js';

const TABLE = 'vigia-outages-concurrency';
let table: TableRef;
let inFlight = 0;
let maxInFlight = 0;

useDynamoTable(TABLE, (t) => {
  table = t;
});

it('reads the days of 60 devices in an outage with at most 8 requests in flight', async () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const lastBeat = '2026-03-10T09:00:00.000Z';
  await putTenant({ id: 'site', name: 'Site' }, table);
  for (let i = 0; i < 60; i++) {
    const id = `dev-${String(i).padStart(3, '0')}`;
    await putDevice({ tenantId: 'site', id, name: `equipo ${i}`, type: 'switch', site: 'Madrid', ipAddress: '10.0.0.1', vendor: 'v', model: 'm', lastHeartbeatAt: lastBeat }, table, now);
    await putDailyAvailability({ tenantId: 'site', deviceId: id, date: '2026-03-09', availablePct: 99 }, table);
    // A writer that stopped before its roll-up refresh: the roll-up is stale, the figure needs the days.
    await table.doc.send('UpdateItem', { TableName: table.tableName, Key: keys.device('site', id), UpdateExpression: 'ADD availRev :one', ExpressionAttributeValues: { ':one': 1 } });
  }
  wrapTableClient(table, (inner): DocumentClient => ({
    async send(operation, input) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await inner.send(operation, input);
      } finally {
        inFlight--;
      }
    },
    destroy: () => inner.destroy(),
  }));
  const down = (await devicesInOutage('site', now, table)).devices;
  expect(down).toHaveLength(60);
  expect(down.every((d) => d.lastHeartbeatAt === lastBeat && d.days.some((x) => x.date === '2026-03-09'))).toBe(true);
  expect(maxInFlight).toBeLessThanOrEqual(8);
  expect(maxInFlight).toBeGreaterThan(1);
}, 120_000);
