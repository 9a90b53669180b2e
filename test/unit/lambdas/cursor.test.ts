import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeCursor, encodeCursor } from '../../../lambdas/data/cursor.js';
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
