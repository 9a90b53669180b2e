/**
 * The staff alarm console at 1,000 tenants (issue 31 point 4; docs/data-model.md#alarm-console-entries), on the
 * real local engine with every request's consumed capacity captured: every page — unfiltered, and filtered by
 * one tenant, one severity, one state, one kind or several at once — is exactly ONE Query of `Limit` = the page
 * size on one index partition, so it reads the rows it returns and no others (its RCU is their size in 4 KB
 * units, the same at 1 or 1,000 tenants), and a small tenant whose alarms are the oldest of all still gets a
 * first page full of its own alarms.
 *
 * The entries are written directly as the data layer stores them (`itemOf(AlarmConsoleEntryEntity, …)`, the
 * 4 copies of each alarm), not through the raise transactions, to stay fast.
 */
import { describe, expect, it } from 'vitest';
import { useDynamoTable } from '../support/dynamo-table.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import type { AlarmConsoleItem, Severity } from '../../lambdas/contract/schemas.js';
import { ALARM_CONSOLE_COPIES, AlarmConsoleEntryEntity, itemOf } from '../../lambdas/data/entities.js';
import { listAlarmConsole } from '../../lambdas/data/alarm-console.js';

const TABLE = 'vigia-alarmconsole-scale';
const TENANTS = 1_000;
const PER_TENANT = 3;
/** The small tenant: 25 alarms, all older than every other tenant's. */
const SMALL = 'pequena';
const SMALL_ALARMS = 25;
const PAGE = 20;
const NOW = Date.parse('2026-11-20T10:00:00.000Z');
const SEVERITIES: Severity[] = ['critical', 'high', 'medium', 'low'];
const STATES = ['open', 'acknowledged', 'cleared'] as const;

let table: TableRef;
const ops: CapturedRequest[] = [];
useDynamoTable(TABLE, async (t) => {
  table = t;
  const rows: AlarmConsoleItem[] = [];
  let n = 0;
  for (let k = 0; k < TENANTS; k++) {
    const tenantId = `t${String(k).padStart(4, '0')}`;
    for (let j = 0; j < PER_TENANT; j++) rows.push(row(tenantId, `al-${j}`, n++, j % 2 === 0 ? 'device' : 'office365'));
  }
  // The small tenant's alarms are older than all of the others: a filter over every tenant's rows would read
  // 3,000 others first.
  for (let j = 0; j < SMALL_ALARMS; j++) rows.push(row(SMALL, `al-${j}`, n++ + 10_000, 'device'));
  const items = rows.flatMap((r) => Array.from({ length: ALARM_CONSOLE_COPIES }, (_, copy) => itemOf(AlarmConsoleEntryEntity, { ...r, copy })));
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  // 4 writers at once (2 CPU cores shared).
  await Promise.all(
    Array.from({ length: 4 }, async (_, w) => {
      for (let b = w; b < batches.length; b += 4) {
        let req: Record<string, unknown[]> = { [TABLE]: batches[b]!.map((Item) => ({ PutRequest: { Item } })) };
        while (Object.keys(req).length) {
          const res = await table.doc.send('BatchWriteItem', { RequestItems: req as never });
          req = (res.UnprocessedItems ?? {}) as Record<string, unknown[]>;
        }
      }
    }),
  );
  captureCapacity(table, ops);
});

/** The console row of alarm number `n` (its age in minutes; severity and state cycle with it). */
function row(tenantId: string, id: string, n: number, kind: 'device' | 'office365'): AlarmConsoleItem {
  const state = STATES[n % 3]!;
  return {
    kind, tenantId, id, deviceId: kind === 'device' ? 'fw-1' : null, deviceName: kind === 'device' ? 'Cortafuegos central' : null, affectedUser: kind === 'office365' ? `ana@${tenantId}.example` : null,
    title: `Alarma ${n} de ${tenantId}`, severity: SEVERITIES[n % 4]!, state, sourceState: kind === 'device' ? { open: 'active', acknowledged: 'acknowledged', cleared: 'cleared' }[state] : { open: 'active', acknowledged: 'investigating', cleared: 'resolved' }[state],
    raisedAt: new Date(NOW - n * 60_000).toISOString(), acknowledgedAt: null, acknowledgedBy: null, clearedAt: null,
  };
}

/** A page and the requests it made (each the one Query it must be). */
async function measured(opts: Parameters<typeof listAlarmConsole>[0]) {
  ops.length = 0;
  const page = await listAlarmConsole(opts, table);
  return { page, reqs: [...ops] };
}

describe('alarm console at 1,000 tenants', () => {
  it('reads every page — unfiltered and by tenant, severity, state, kind — with exactly ONE Query of the page size', async () => {
    const views: { name: string; opts: Parameters<typeof listAlarmConsole>[0]; match: (r: AlarmConsoleItem) => boolean }[] = [
      { name: 'unfiltered', opts: { limit: PAGE }, match: () => true },
      { name: 'tenant t0500', opts: { limit: PAGE, tenantId: 't0500' }, match: (r) => r.tenantId === 't0500' },
      { name: 'severity critical', opts: { limit: PAGE, severity: 'critical' }, match: (r) => r.severity === 'critical' },
      { name: 'state open', opts: { limit: PAGE, state: 'open' }, match: (r) => r.state === 'open' },
      { name: 'kind office365', opts: { limit: PAGE, kind: 'office365' }, match: (r) => r.kind === 'office365' },
      { name: 'severity high + state cleared + kind device', opts: { limit: PAGE, severity: 'high', state: 'cleared', kind: 'device' }, match: (r) => r.severity === 'high' && r.state === 'cleared' && r.kind === 'device' },
    ];
    const rcu: Record<string, number> = {};
    for (const v of views) {
      // The first page and the one after it: each ONE Query, Limit = the page size, the rows in order.
      const first = await measured(v.opts);
      const second = await measured({ ...v.opts, cursor: first.page.nextCursor! });
      for (const [p, label] of [[first, 'page 1'], [second, 'page 2']] as const) {
        expect(p.reqs.map((r) => r.op), `${v.name} ${label}`).toEqual(['Query']);
        expect(p.reqs[0]!.index, `${v.name} ${label}`).toMatch(/^GSI[1-4]$/);
        // A tenant's partition holds only its 3 alarms; every other view's has more than two pages.
        if (v.opts.tenantId === undefined) expect(p.page.items, `${v.name} ${label}`).toHaveLength(PAGE);
        for (const r of p.page.items) expect(v.match(r), `${v.name}: ${JSON.stringify(r)}`).toBe(true);
        const times = p.page.items.map((r) => r.raisedAt);
        expect(times, `${v.name} newest first`).toEqual([...times].sort().reverse());
        // 20 rows of ~0.6 KB: their size in 4 KB units (0.5 RCU each, eventually consistent).
        expect(p.reqs[0]!.rcu, `${v.name} ${label}`).toBeLessThanOrEqual(2);
      }
      if (v.opts.tenantId === undefined) expect(second.page.items[0]!.raisedAt <= first.page.items.at(-1)!.raisedAt).toBe(true);
      rcu[v.name] = first.reqs[0]!.rcu;
    }
    // Measured: 20 rows of one filter ~12 KB (3 units); with 3 filters the longer partition keys make 4 units;
    // the tenant's 3 rows one unit — at 1,000 tenants as at 1.
    expect(rcu).toEqual({ unfiltered: 1.5, 'tenant t0500': 0.5, 'severity critical': 1.5, 'state open': 1.5, 'kind office365': 1.5, 'severity high + state cleared + kind device': 2 });
  }, 180_000);

  it("gives a small tenant, whose alarms are the oldest of all, a first filtered page full of its own alarms in ONE Query", async () => {
    const all = await measured({ limit: PAGE, tenantId: SMALL });
    expect(all.reqs.map((r) => r.op)).toEqual(['Query']);
    expect(all.page.items).toHaveLength(PAGE);
    expect(new Set(all.page.items.map((r) => r.tenantId))).toEqual(new Set([SMALL]));
    expect(all.page.nextCursor).not.toBeNull();
    const rest = await measured({ limit: PAGE, tenantId: SMALL, cursor: all.page.nextCursor! });
    expect(rest.page.items).toHaveLength(SMALL_ALARMS - PAGE);
    expect(rest.page.nextCursor).toBeNull();
    // Filtered by tenant and state: its own open alarms only (8 of its 25), in one Query, no other tenant's read.
    const open = await measured({ limit: PAGE, tenantId: SMALL, state: 'open' });
    expect(open.reqs.map((r) => r.op)).toEqual(['Query']);
    expect(open.page.items.length).toBe(8);
    expect(open.page.nextCursor).toBeNull();
    for (const r of open.page.items) expect(r).toMatchObject({ tenantId: SMALL, state: 'open' });
    expect(open.reqs[0]!.rcu).toBeLessThanOrEqual(1);
  }, 60_000);
});
