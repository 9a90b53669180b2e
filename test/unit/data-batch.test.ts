/**
 * `batchGetAll` / `batchWriteAll` (lambdas/data/table/dynamo-util.ts): the one BatchGetItem / BatchWriteItem of any
 * number of keys or requests — chunked to DynamoDB's limits (100 keys, 25 requests), unprocessed keys and
 * requests sent again (AWS: retry them with exponential backoff; the rules proxy returns them for a throttled
 * partition, test/conformance/dynamodb-rules.test.ts), and a clear failure instead of a silent partial read.
 * The client is scripted here so every branch is exercised deterministically.
 */
import { describe, expect, it } from 'vitest';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { BATCH_ATTEMPTS, batchGetAll, batchWriteAll } from '../../lambdas/data/table/dynamo-util.js';
import { IncidentEntity, itemOf } from '../../lambdas/data/entities.js';
import { batchGetIncidents, dropSearchTokens, ensureSearchTokens, putSearchTokens, searchTokenItems } from '../../lambdas/data/incident-search.js';
import { keys } from '../../lambdas/data/table/keys.js';
import { newIncident } from '../../lambdas/domain/incidents.js';
import { searchTokens } from '../../lambdas/domain/search.js';

// The scripted answers read the request loosely (its shape is what the helpers build).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
type Call = { op: string; input: Loose };

/** A table whose client answers each call with `answer(call, n)` and records the calls. */
function scripted(answer: (c: Call, n: number) => unknown): { table: TableRef; calls: Call[] } {
  const calls: Call[] = [];
  const doc = { send: async (op: string, input: Loose) => { const c = { op, input }; calls.push(c); return answer(c, calls.length); }, destroy() {} };
  return { table: { doc: doc as unknown as TableRef['doc'], tableName: 't' }, calls };
}
const key = (i: number) => ({ PK: `P#${i}`, SK: 'S' });

describe('batchGetAll', () => {
  it('reads any number of keys in calls of at most 100, passing projection and consistency', async () => {
    const { table, calls } = scripted((c) => ({ Responses: { t: c.input.RequestItems.t.Keys.map((k: object) => ({ ...k, v: 1 })) } }));
    const items = await batchGetAll(table, Array.from({ length: 250 }, (_, i) => key(i)), { projection: 'PK, #d', names: { '#d': 'devices' }, consistent: true });
    expect(items).toHaveLength(250);
    expect(calls.map((c) => c.input.RequestItems.t.Keys.length).sort((a, b) => a - b)).toEqual([50, 100, 100]);
    expect(calls[0]!.input.RequestItems.t).toMatchObject({ ProjectionExpression: 'PK, #d', ExpressionAttributeNames: { '#d': 'devices' }, ConsistentRead: true });
  });

  it('asks again for the keys a call left unprocessed, and returns every item once', async () => {
    const { table, calls } = scripted((c, n) => {
      const ks = c.input.RequestItems.t.Keys as { PK: string }[];
      // The first call serves half and leaves the rest unprocessed (a throttled partition).
      return n === 1 ? { Responses: { t: ks.slice(0, 5) }, UnprocessedKeys: { t: { Keys: ks.slice(5) } } } : { Responses: { t: ks } };
    });
    const items = await batchGetAll(table, Array.from({ length: 10 }, (_, i) => key(i)));
    expect(items.map((i) => i.PK).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `P#${i}`).sort());
    expect(calls.map((c) => c.input.RequestItems.t.Keys.length)).toEqual([10, 5]);
  });

  it(`fails after ${BATCH_ATTEMPTS} calls with keys still unprocessed (never a silent partial read)`, async () => {
    const { table, calls } = scripted((c) => ({ Responses: { t: [] }, UnprocessedKeys: { t: { Keys: c.input.RequestItems.t.Keys } } }));
    await expect(batchGetAll(table, [key(1), key(2)])).rejects.toThrow(`BatchGetItem: 2 keys still unprocessed after ${BATCH_ATTEMPTS} calls`);
    expect(calls).toHaveLength(BATCH_ATTEMPTS);
  }, 30_000);

  it('sends nothing for no keys', async () => {
    const { table, calls } = scripted(() => ({}));
    expect(await batchGetAll(table, [])).toEqual([]);
    expect(calls).toHaveLength(0);
  });
});

describe('batchWriteAll', () => {
  it('writes in calls of at most 25 and sends unprocessed requests again until all are written', async () => {
    const written: string[] = [];
    const { table, calls } = scripted((c, n) => {
      const rs = c.input.RequestItems.t as { PutRequest: { Item: { PK: string } } }[];
      const done = n === 2 ? rs.slice(0, 3) : rs; // the second call leaves all but 3 unprocessed
      written.push(...done.map((r) => r.PutRequest.Item.PK));
      return n === 2 ? { UnprocessedItems: { t: rs.slice(3) } } : {};
    });
    const requests = Array.from({ length: 60 }, (_, i) => ({ PutRequest: { Item: key(i) } }));
    await batchWriteAll(table, requests);
    expect(written.sort()).toEqual(requests.map((r) => r.PutRequest.Item.PK).sort());
    expect(calls.map((c) => c.input.RequestItems.t.length)).toEqual([25, 25, 22, 10]);
  });

  it(`fails after ${BATCH_ATTEMPTS} calls with requests still unprocessed`, async () => {
    const { table } = scripted((c) => ({ UnprocessedItems: { t: c.input.RequestItems.t } }));
    await expect(batchWriteAll(table, [{ DeleteRequest: { Key: key(1) } }])).rejects.toThrow(`BatchWriteItem: 1 requests still unprocessed after ${BATCH_ATTEMPTS} calls`);
  }, 30_000);
});

describe('incident search reads and writes through batchGetAll / batchWriteAll', () => {
  const incident = (n: number, title: string) => newIncident('acme', n, { title, description: 'x', severity: 'high', category: 'general' }, 'r', `2026-01-0${n}T00:00:00.000Z`);
  const stored = [incident(1, 'Firewall caído'), incident(2, 'VPN remota lenta'), incident(3, 'Correo sin servicio')];
  const byKey = new Map(stored.map((i) => [`${keys.incident('acme', i.id).PK}|${keys.incident('acme', i.id).SK}`, itemOf(IncidentEntity, i)]));
  const keyOf = (k: { PK: string; SK: string }) => `${k.PK}|${k.SK}`;

  it('batchGetIncidents asks once per id and asks again for the keys left unprocessed', async () => {
    const { table, calls } = scripted((c, n) => {
      const ks = c.input.RequestItems.t.Keys as { PK: string; SK: string }[];
      const served = n === 1 ? ks.slice(0, 1) : ks; // a throttled partition: all but the first key come back unprocessed
      return { Responses: { t: served.map((k) => byKey.get(keyOf(k))).filter(Boolean) }, ...(n === 1 ? { UnprocessedKeys: { t: { Keys: ks.slice(1) } } } : {}) };
    });
    const found = await batchGetIncidents(table, 'acme', [stored[0]!.id, stored[1]!.id, stored[0]!.id, 'INC-000099']);
    expect([...found.keys()].sort()).toEqual([stored[0]!.id, stored[1]!.id]);
    expect(found.get(stored[1]!.id)).toEqual(stored[1]);
    expect(calls.map((c) => c.input.RequestItems.t.Keys.length)).toEqual([3, 2]);
  });

  it('ensureSearchTokens checks the word keys (projection PK, SK) and writes only the missing ones, resending unprocessed requests', async () => {
    const target = stored[1]!;
    const words = searchTokenItems(target);
    const present = new Set([keyOf(words[0] as { PK: string; SK: string })]);
    const written: string[] = [];
    const { table, calls } = scripted((c) => {
      if (c.op === 'GetItem') return { Item: itemOf(IncidentEntity, target) };
      if (c.op === 'BatchGetItem') {
        const ks = c.input.RequestItems.t.Keys as { PK: string; SK: string }[];
        const first = calls.filter((x) => x.op === 'BatchGetItem').length === 1;
        const served = first ? ks.slice(0, 1) : ks;
        return { Responses: { t: served.filter((k) => present.has(keyOf(k))) }, ...(first ? { UnprocessedKeys: { t: { Keys: ks.slice(1) } } } : {}) };
      }
      const rs = c.input.RequestItems.t as { PutRequest: { Item: { PK: string; SK: string } } }[];
      const first = calls.filter((x) => x.op === 'BatchWriteItem').length === 1;
      const done = first ? rs.slice(0, 1) : rs;
      written.push(...done.map((r) => keyOf(r.PutRequest.Item)));
      return first ? { UnprocessedItems: { t: rs.slice(1) } } : {};
    });
    expect(words.length).toBeGreaterThan(2);
    expect(await ensureSearchTokens(table, 'acme', target.id)).toBe(words.length - 1);
    expect(written.sort()).toEqual(words.slice(1).map((w) => keyOf(w as { PK: string; SK: string })).sort());
    expect(calls.map((c) => c.op)).toEqual(['GetItem', 'BatchGetItem', 'BatchGetItem', 'BatchWriteItem', 'BatchWriteItem']);
    expect(calls[1]!.input.RequestItems.t.ProjectionExpression).toBe('PK, SK');
  });

  it('putSearchTokens and dropSearchTokens send their words with batchWriteAll', async () => {
    const { table, calls } = scripted(() => ({}));
    const before = stored[0]!;
    const after = { ...before, title: 'Firewall restablecido' };
    const [kept, added] = searchTokens(after.title);
    const dropped = searchTokens(before.title).filter((t) => !searchTokens(after.title).includes(t));
    expect(dropped).toHaveLength(1);
    await putSearchTokens(table, after, before);
    await dropSearchTokens(table, after, before);
    const [put, drop] = calls.map((c) => c.input.RequestItems.t as { PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: unknown }[]);
    expect(put!.map((r) => ({ PK: r.PutRequest!.Item.PK, SK: r.PutRequest!.Item.SK }))).toEqual([kept!, added!].map((t) => keys.searchToken('acme', t, before.id, before.createdAt)));
    expect(drop).toEqual([{ DeleteRequest: { Key: keys.searchToken('acme', dropped[0]!, before.id, before.createdAt) } }]);
  });
});
