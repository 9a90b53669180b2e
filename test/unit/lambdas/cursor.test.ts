import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ERROR_STATUS } from '../../../lambdas/contract/schemas.js';
import { decodeCursor, decodeKeyCursor, decodePositionCursor, encodeCursor, encodeKeyCursor, encodePositionCursor, invalidCursor } from '../../../lambdas/data/table/cursor.js';
import type { TableRef } from '../../../lambdas/data/table/client.js';
import { keys, TENANTS_PK } from '../../../lambdas/data/table/keys.js';
import { maintenanceWindowsRepository } from '../../../lambdas/data/maintenance-windows.js';
import { digestSource } from '../../../lambdas/data/notification-digest.js';
import { queryPage } from '../../../lambdas/data/table/paging.js';
import { ApiError } from '../../../lambdas/domain/errors.js';
import { errorOf } from '../../support/api-errors.js';

const scope = keys.incidentsGsi1Pk('acme');
const prefix = keys.tenantPrefix('acme');
const lek = { ...keys.incident('acme', 'INC-000010'), ...keys.incidentGsi1('acme', 'INC-000010', '2025-01-01T00:00:00.000Z') };
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function rejects(cursor: string, s = scope, p = prefix): void {
  try {
    decodeCursor(cursor, s, p);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('VALIDATION_FAILED');
    return;
  }
  throw new Error(`accepted ${cursor}`);
}

describe('pagination cursors', () => {
  it('round-trips a LastEvaluatedKey and is opaque base64url', () => {
    const c = encodeCursor(scope, lek)!;
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c, scope, prefix)).toEqual(lek);
    expect(encodeCursor(scope, undefined)).toBeNull();
  });

  it('rejects a cursor issued for another tenant or list', () => {
    const c = encodeCursor(scope, lek)!;
    rejects(c, keys.incidentsGsi1Pk('globex'), keys.tenantPrefix('globex'));
    rejects(c, keys.devicesGsi1Pk('acme'));
  });

  it('rejects forged keys pointing into another tenant', () => {
    rejects(b64({ s: scope, k: { ...lek, PK: 'TENANT#globex#INCIDENT#INC-000001' } }));
    rejects(b64({ s: scope, k: { ...lek, GSI1PK: 'TENANT#globex#INCIDENTS' } }));
    rejects(b64({ s: scope, k: { PK: lek.PK, SK: lek.SK } }));
    rejects(b64({ s: scope, k: { ...lek, GSI1SK: undefined } }));
    rejects(b64({ s: scope, k: { ...lek, PK: 5 } }));
    rejects(b64({ s: scope, k: { ...lek, Other: 'x' } }));
    rejects(b64({ s: scope, k: lek, extra: 1 }));
    rejects(b64([1, 2]));
    rejects('not base64!');
    rejects(Buffer.from('{"s":').toString('base64url'));
  });

  it('never throws anything but VALIDATION_FAILED on garbage', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 1 }), fc.jsonValue().map(b64)), (garbage) => {
        try {
          const k = decodeCursor(garbage, scope, prefix);
          expect(k.GSI1PK).toBe(scope); // only well-formed keys of this tenant's list get through
          expect(k.PK!.startsWith(prefix)).toBe(true);
        } catch (e) {
          expect((e as ApiError).code).toBe('VALIDATION_FAILED');
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('key cursors of index lists (audit, SOC queue, alarm console, access requests)', () => {
  const rule = { scope: 'AUDIT', keyNames: ['PK', 'SK', 'GSI2PK', 'GSI2SK'], partitionKey: 'GSI2PK', partition: 'AUDIT', pkPrefix: 'TENANT#' };
  const last = { PK: 'TENANT#acme#AUDIT', SK: 'AUD#2026-11-01T00:00:00.000Z#x', GSI2PK: 'AUDIT', GSI2SK: '2026-11-01T00:00:00.000Z#x', title: 'not a key' };
  const bad = (cursor: string, r: Parameters<typeof decodeKeyCursor>[1] = rule) => {
    try {
      decodeKeyCursor(cursor, r);
    } catch (e) {
      return e instanceof ApiError && e.code === 'VALIDATION_FAILED' && JSON.stringify(e.details).includes('query.cursor');
    }
    return false;
  };
  it('round-trips exactly the key attributes, and null at the last page', () => {
    const c = encodeKeyCursor('AUDIT', rule.keyNames, last)!;
    expect(decodeKeyCursor(c, rule)).toEqual({ PK: last.PK, SK: last.SK, GSI2PK: 'AUDIT', GSI2SK: last.GSI2SK });
    expect(encodeKeyCursor('AUDIT', rule.keyNames, undefined)).toBeNull();
  });
  it('refuses another list, another partition, a key outside the key space, missing or extra attributes, and a failed range check', () => {
    const c = encodeKeyCursor('AUDIT', rule.keyNames, last)!;
    expect(bad(c, { ...rule, scope: 'OTHER' })).toBe(true);
    expect(bad(c, { ...rule, partition: 'AUDIT#2' })).toBe(true);
    expect(bad(c, { ...rule, pkPrefix: 'TENANT#globex#' })).toBe(true);
    expect(bad(encodeKeyCursor('AUDIT', ['PK', 'SK', 'GSI2PK'], last)!)).toBe(true);
    expect(bad(b64({ s: 'AUDIT', k: { ...last, X: '1' } }))).toBe(true);
    expect(bad(c, { ...rule, accept: (k) => k.GSI2SK! < '2026' })).toBe(true);
    expect(bad('not base64!')).toBe(true);
    expect(bad(b64({ s: 'AUDIT' }))).toBe(true);
  });
});

describe('position cursors (search, a device\'s alarms, devices by IP)', () => {
  it('round-trips a position with or without a scope, and refuses a cursor of another scope or a position the list rejects', () => {
    expect(decodePositionCursor(encodePositionCursor('2026-01-01T00:00:00Z#INC-000001'), (p) => p.startsWith('2026'))).toBe('2026-01-01T00:00:00Z#INC-000001');
    expect(decodePositionCursor(encodePositionCursor('10.0.0.1#dev-1', 'TENANT#acme#DEVICEIP#10.0.'), () => true, 'TENANT#acme#DEVICEIP#10.0.')).toBe('10.0.0.1#dev-1');
    expect(() => decodePositionCursor(encodePositionCursor('10.0.0.1#dev-1', 'TENANT#acme#DEVICEIP#10.0.'), () => true, 'TENANT#globex#DEVICEIP#10.0.')).toThrow(ApiError);
    expect(() => decodePositionCursor(encodePositionCursor('10.0.0.1#dev-1', 'A'), () => true)).toThrow(ApiError);
    expect(() => decodePositionCursor(encodePositionCursor('x'), () => false)).toThrow(ApiError);
    expect(() => decodePositionCursor(b64({ p: 5 }), () => true)).toThrow(ApiError);
  });
});

describe('the one refusal (the API\'s stable answer to a bad cursor)', () => {
  const position = '2026-01-01T00:00:00Z#INC-000001';
  const keyRule = { scope: 'AUDIT', keyNames: ['PK', 'SK', 'GSI2PK', 'GSI2SK'], partitionKey: 'GSI2PK', partition: 'AUDIT', pkPrefix: 'TENANT#' };
  const auditKey = { PK: 'TENANT#acme#AUDIT', SK: 'AUD#x', GSI2PK: 'AUDIT', GSI2SK: 'x' };
  // Every decoder, each given a cursor of its own kind that it would accept.
  const decoders: [string, (c: string) => unknown, string][] = [
    ['decodeCursor', (c) => decodeCursor(c, scope, prefix), encodeCursor(scope, lek)!],
    ['decodeKeyCursor', (c) => decodeKeyCursor(c, keyRule), encodeKeyCursor('AUDIT', keyRule.keyNames, auditKey)!],
    ['decodePositionCursor', (c) => decodePositionCursor(c, () => true), encodePositionCursor(position)],
  ];
  const expectRefusal = (e: ApiError | undefined) => {
    expect(e).toBeInstanceOf(ApiError);
    expect(e!.code).toBe('VALIDATION_FAILED');
    expect(ERROR_STATUS[e!.code]).toBe(400);
    expect(e!.message).toBe('invalid cursor');
    expect(e!.details).toEqual([{ path: 'query.cursor', message: 'invalid cursor' }]);
  };

  it('is 400 VALIDATION_FAILED "invalid cursor" at query.cursor, from every decoder, for garbage and tampering', () => {
    for (const [, decode, good] of decoders) {
      expect(errorOf(() => decode(good))).toBeUndefined();
      for (const bad of ['', 'not base64!', good.slice(0, -3), `${good}%`, 'x'.repeat(2049), b64(null), b64('x'), b64({})]) expectRefusal(errorOf(() => decode(bad)));
      // The payload decoded, edited and encoded again: another list's scope.
      const payload = JSON.parse(Buffer.from(good, 'base64url').toString('utf8')) as Record<string, unknown>;
      expectRefusal(errorOf(() => decode(b64({ ...payload, s: 'TENANT#globex#INCIDENTS' }))));
    }
    expectRefusal(errorOf(() => invalidCursor()));
  });

  it('refuses every foreign payload shape: another kind of cursor, the pre-codec shapes, a Cognito team cursor, a bare key', () => {
    const foreign = [
      ...decoders.map(([, , c]) => c),
      b64({ a: '2026-01-01T00:00:00.000Z#dev-1#ALM-1' }), // a device's alarms before the codec
      b64({ p: 'TENANT#acme#ALARMCONSOLE', k: auditKey }), // the alarm console before the codec
      b64({ g: 'acme', t: 'cognito-next-token' }), // GET /team (domain/team.ts)
      b64(lek), // a bare LastEvaluatedKey (the digest job's cursor before the codec)
      b64({ s: scope, k: lek, p: position }), // both kinds at once
    ];
    for (const [name, decode, own] of decoders) {
      for (const c of foreign.filter((f) => f !== own)) {
        const e = errorOf(() => decode(c));
        expect(e, `${name} accepted ${Buffer.from(c, 'base64url').toString('utf8')}`).toBeDefined();
        expectRefusal(e);
      }
    }
  });

  it('decodeCursor applies the list\'s own check of the start key (maintenance windows: the side of now)', () => {
    const c = encodeCursor(scope, lek)!;
    expect(decodeCursor(c, scope, prefix, (k) => k.GSI1SK === lek.GSI1SK)).toEqual(lek);
    expectRefusal(errorOf(() => decodeCursor(c, scope, prefix, (k) => k.GSI1SK! > '2026')));
  });

  it('keeps a list\'s own refusal detail when it gives one', () => {
    expect(errorOf(() => invalidCursor('cursor outside the from/to range'))!.details).toEqual([{ path: 'query.cursor', message: 'cursor outside the from/to range' }]);
  });
});

describe('no cursor is made or read outside cursor.ts', () => {
  // A caller that encodes or parses a cursor by hand (base64url JSON) skips the codec's validation; the
  // only other base64url in lambdas/ is GET /team's wrapper of Cognito's NextToken (not a DynamoDB key).
  const ALLOWED = new Set(['data/table/cursor.ts', 'domain/team.ts']);
  const root = fileURLToPath(new URL('../../../lambdas/', import.meta.url));
  const sources = (readdirSync(root, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.split(path.sep).join('/'));

  it('finds base64url only in the codec', () => {
    expect(sources.length).toBeGreaterThan(50);
    const offenders = sources.filter((f) => !ALLOWED.has(f) && /['"`]base64url['"`]/.test(readFileSync(path.join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe('callers hand their cursors to the codec', () => {
  type Sent = { op: string; input: Record<string, unknown> };
  /** A table whose client answers every call with `answer` and records what was sent. */
  function scripted(answer: (s: Sent) => unknown): { table: TableRef; sent: Sent[] } {
    const sent: Sent[] = [];
    const send = async (op: string, input: Record<string, unknown>) => {
      sent.push({ op, input });
      return answer({ op, input });
    };
    return { table: { doc: { send, destroy() {} } as unknown as TableRef['doc'], tableName: 't' }, sent };
  }
  const refusedBeforeAnyCall = async (run: Promise<unknown>, sent: Sent[], detail = 'invalid cursor') => {
    const e = await run.then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('VALIDATION_FAILED');
    expect((e as ApiError).details).toEqual([{ path: 'query.cursor', message: detail }]);
    expect(sent).toEqual([]);
  };

  it('the digest and monthly report jobs page the tenant registry with a registry cursor', async () => {
    const lastKey = { PK: TENANTS_PK, SK: 'TENANT#acme' };
    const { table, sent } = scripted((s) => (s.input.ExclusiveStartKey ? { Items: [{ SK: 'TENANT#globex' }] } : { Items: [{ SK: 'TENANT#acme' }], LastEvaluatedKey: lastKey }));
    const first = await digestSource(table).tenantPage();
    expect(first.tenantIds).toEqual(['acme']);
    expect(decodeCursor(first.cursor!, TENANTS_PK, TENANTS_PK)).toEqual(lastKey);
    expect(first.cursor).toBe(encodeCursor(TENANTS_PK, lastKey)); // the admin tenant list's cursor of the same key
    const second = await digestSource(table).tenantPage(first.cursor);
    expect(second).toEqual({ tenantIds: ['globex'], cursor: undefined });
    expect(sent[1]!.input.ExclusiveStartKey).toEqual(lastKey);
    sent.length = 0;
    await refusedBeforeAnyCall(digestSource(table).tenantPage(b64(lastKey)), sent);
  });

  it('maintenance windows refuse a cursor of the other side of now, through the codec', async () => {
    const now = '2026-06-01T00:00:00.000Z';
    const { table, sent } = scripted(() => ({ Items: [] }));
    const windows = maintenanceWindowsRepository(table);
    const keyEndingAt = (endAt: string) => ({ ...keys.maintenanceWindow('acme', 'w1'), ...keys.maintenanceWindowGsi1('acme', 'w1', endAt) });
    const future = encodeCursor(keys.maintenanceWindowsGsi1Pk('acme'), keyEndingAt('2026-07-01T00:00:00.000Z'))!;
    await refusedBeforeAnyCall(windows.list('acme', { status: 'past', now, limit: 10, cursor: future }), sent);
    await refusedBeforeAnyCall(windows.list('globex', { now, limit: 10, cursor: future }), sent);
    await windows.list('acme', { now, limit: 10, cursor: future });
    expect(sent[0]!.input.ExclusiveStartKey).toEqual(keyEndingAt('2026-07-01T00:00:00.000Z'));
  });

  it('a tenant list refuses a cursor outside from/to with its own detail, through the codec', async () => {
    const { table, sent } = scripted(() => ({ Items: [] }));
    const list = keys.incidentsGsi1Pk('acme');
    const cursor = encodeCursor(list, lek)!; // GSI1SK of 2025-01-01
    const range = { lower: '2026-01-01T00:00:00.000Z', upper: '~' };
    await refusedBeforeAnyCall(queryPage(table, { tenantId: 'acme', scope: list, range, limit: 10, cursor }), sent, 'cursor outside the from/to range');
    await refusedBeforeAnyCall(queryPage(table, { tenantId: 'acme', scope: list, limit: 10, cursor: b64({ s: list, k: lek, x: 1 }) }), sent);
  });
});
