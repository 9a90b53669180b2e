/**
 * Customer roles (docs/api.md#customer-roles, docs/decisions/customer-roles.md): the role comes from the
 * verified `cognito:groups` claim only, role groups are never tenants nor tenant ids, and the HTTP layer's row
 * check refuses a customer below the row's resolved `minRole` with 403 ROLE_REQUIRED while staff keep their rules.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_ROLE_GROUPS, ROUTES, resolvedMinRole, type RouteDef } from '../../../lambdas/contract/routes.js';
import { ERROR_STATUS } from '../../../lambdas/contract/schemas.js';
import { assertRowAccess, identityFromClaims, roleOfGroups } from '../../../lambdas/domain/identity.js';
import { assertTenantIdNotReserved } from '../../../lambdas/domain/reserved-names.js';
import { errorOf } from '../../support/api-errors.js';
import { roleMatrix } from '../../support/role-matrix.js';

const who = (groups: string, mfa = false) => identityFromClaims({ sub: 's-1', 'cognito:groups': groups, ...(mfa ? { 'vigia:mfa': 'totp' } : {}) })!;
const row = (id: string): RouteDef => ROUTES.find((r) => r.operationId === id)! as RouteDef;

describe('customer roles', () => {
  it('the highest role group counts; none = operator; role groups are never tenants', () => {
    expect(roleOfGroups(['acme'])).toBe('operator');
    expect(roleOfGroups(['acme', 'customer-viewer'])).toBe('viewer');
    expect(roleOfGroups(['customer-viewer', 'acme', 'customer-admin'])).toBe('admin');
    expect(roleOfGroups(['acme', 'customer-operator', 'customer-viewer'])).toBe('operator');
    expect(who('[acme customer-admin customer-viewer customer-operator]').tenants).toEqual(['acme']);
  });

  it('role group names are reserved tenant ids', () => {
    for (const g of Object.values(CUSTOMER_ROLE_GROUPS)) {
      expect(errorOf(() => assertTenantIdNotReserved(g))).toMatchObject({ code: 'RESERVED_NAME', details: { names: [g] } });
    }
  });

  it('defaults: GET viewer, other methods operator; not on untenanted rows', () => {
    expect(resolvedMinRole({ tenantScoped: true, method: 'GET' })).toBe('viewer');
    expect(resolvedMinRole({ tenantScoped: true, method: 'DELETE' })).toBe('operator');
    expect(resolvedMinRole({ tenantScoped: true, method: 'GET', minRole: 'admin' })).toBe('admin');
    expect(resolvedMinRole({ tenantScoped: false, method: 'POST' })).toBeNull();
  });

  it('a customer below the row is refused 403 ROLE_REQUIRED; staff are judged by their own rules', () => {
    const put = row('putEscalationContacts');
    expect(resolvedMinRole(put)).toBe('admin');
    expect(errorOf(() => assertRowAccess(who('acme'), put))).toMatchObject({ code: 'ROLE_REQUIRED', details: { required: 'admin', role: 'operator' } });
    expect(errorOf(() => assertRowAccess(who('acme,customer-admin'), put))).toBeUndefined();
    expect(errorOf(() => assertRowAccess(who('acme,customer-viewer'), row('createIncident')))).toMatchObject({ code: 'ROLE_REQUIRED' });
    expect(errorOf(() => assertRowAccess(who('acme,customer-viewer'), row('listIncidents')))).toBeUndefined();
    expect(errorOf(() => assertRowAccess(who('admin', true), put))).toBeUndefined();
    expect(ERROR_STATUS.ROLE_REQUIRED).toBe(403);
  });
});

describe('docs/api.md#customer-roles', () => {
  it('has the role matrix of the route table (paste the expected text between the markers when it fails)', () => {
    const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    const section = /<!-- roles:start -->\n([\s\S]*?)\n<!-- roles:end -->/.exec(doc)?.[1];
    expect(section).toBe(roleMatrix());
  });
});
