import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeCursor, decodeKeyCursor, decodePositionCursor, encodeCursor, encodeKeyCursor, encodePositionCursor } from '../../../lambdas/data/cursor.js';
import { keys } from '../../../lambdas/data/keys.js';
import { ApiError } from '../../../lambdas/domain/errors.js';

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
