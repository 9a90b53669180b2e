/**
 * The staff TOTP rule of the route table (docs/api.md#staff-accounts-and-totp): every row's `staffReach`
 * agrees with its `groups`, `tenantScoped` and `auth` (`staffReachProblem`), the rows that show more than one
 * tenant to staff are `all`, and `assertRowAccess` asks a member of `admin` for TOTP on every `all` row.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, errorCodes, staffReachProblem, type RouteDef } from '../../../lambdas/contract/routes.js';
import { assertRowAccess, identityFromClaims, type Identity } from '../../../lambdas/domain/identity.js';
import { ApiError } from '../../../lambdas/domain/errors.js';

const rows = ROUTES as readonly RouteDef[];
const who = (groups: string[], mfa: boolean): Identity =>
  identityFromClaims({ sub: 's', 'cognito:groups': groups.join(','), ...(mfa ? { 'vigia:mfa': 'totp' } : {}) })!;
const codeOf = (f: () => void): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
};

describe('route table: staffReach', () => {
  it('agrees with each row (staffReachProblem is null for every row)', () => {
    expect(rows.map(staffReachProblem).filter((p) => p !== null)).toEqual([]);
  });

  it('refuses rows that would let staff in without the rule', () => {
    const base = rows.find((r) => r.operationId === 'listAuditLog')!;
    expect(staffReachProblem({ ...base, staffReach: 'self', groups: ['admin'] })).toMatch(/must have staffReach 'all'/);
    expect(staffReachProblem({ ...base, staffReach: 'tenant' })).toMatch(/needs a tenant-scoped row/);
    expect(staffReachProblem({ ...base, staffReach: 'self', tenantScoped: true })).toMatch(/open to customers must have staffReach 'tenant'/);
    expect(staffReachProblem({ ...base, staffReach: 'none' })).toMatch(/collector rows/);
  });

  it('only /me is self; the audit log is all; every staff-only row is all', () => {
    expect(rows.filter((r) => r.staffReach === 'self').map((r) => r.operationId)).toEqual(['getMe']);
    expect(rows.find((r) => r.operationId === 'listAuditLog')!.staffReach).toBe('all');
    for (const r of rows.filter((x) => x.groups.includes('admin'))) expect(r.staffReach, r.operationId).toBe('all');
  });

  it('documents MFA_REQUIRED exactly on the rows staff reach', () => {
    for (const r of rows) expect(errorCodes(r).includes('MFA_REQUIRED'), r.operationId).toBe(r.staffReach === 'all' || r.staffReach === 'tenant');
  });
});

describe('assertRowAccess', () => {
  const audit = rows.find((r) => r.operationId === 'listAuditLog')!;
  const me = rows.find((r) => r.operationId === 'getMe')!;
  const incidents = rows.find((r) => r.operationId === 'listIncidents')!;

  it('asks every admin member for TOTP on an `all` row, even one open to any group', () => {
    expect(codeOf(() => assertRowAccess(who(['admin'], false), audit))).toBe('MFA_REQUIRED');
    expect(codeOf(() => assertRowAccess(who(['admin', 'acme'], false), audit))).toBe('MFA_REQUIRED');
    expect(codeOf(() => assertRowAccess(who(['admin'], true), audit))).toBeUndefined();
  });

  it('leaves customers, `self` rows and `tenant` rows (resolveTenant decides there) alone', () => {
    expect(codeOf(() => assertRowAccess(who(['acme'], false), audit))).toBeUndefined();
    expect(codeOf(() => assertRowAccess(who(['admin'], false), me))).toBeUndefined();
    expect(codeOf(() => assertRowAccess(who(['admin'], false), incidents))).toBeUndefined();
    expect(codeOf(() => assertRowAccess(who([], false), me))).toBe('FORBIDDEN');
  });
});
