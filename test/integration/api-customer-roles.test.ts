/**
 * Customer roles on every tenant-scoped row of the route table (docs/api.md#customer-roles), over the REAL
 * handlers on dynoxide behind the rules proxy, with the route examples (test/support/route-examples.ts):
 *  - a viewer, an operator and an admin of acme call each customer row's example (in that order);
 *  - a role below the row's resolved `minRole` → 403 ROLE_REQUIRED with `details.required`, and nothing is
 *    written (table snapshot equal before and after);
 *  - the lowest role that reaches it → 2xx; higher roles → 2xx on GET rows, and never ROLE_REQUIRED on writes
 *    (a second DELETE of the same example may answer 404);
 *  - staff (`admin`, TOTP) are not judged by customer roles.
 */
import { describe, expect, it } from 'vitest';
import { CUSTOMER_ROLES, ROUTES, resolvedMinRole, roleAtLeast, type CustomerRole, type OperationId, type RouteDef } from '../../lambdas/contract/routes.js';
import { EXAMPLES, exampleEvent } from '../support/route-examples.js';
import { lambdaContext, type CallerSpec } from '../support/events.js';
import { useExampleApi } from '../support/example-api.js';

const ex = useExampleApi({ table: 'vigia-customer-roles' });
const callerOf: Record<CustomerRole, CallerSpec> = {
  viewer: { sub: 'u-viewer', email: 'victor@acme.example', groups: ['acme', 'customer-viewer'] },
  operator: { sub: 'u-operator', email: 'olga@acme.example', groups: ['acme'] },
  admin: { sub: 'u-admin', email: 'ana@acme.example', groups: ['acme', 'customer-admin'] },
};
/** Customer rows: tenant-scoped, open to any group, whose example is a customer's (not staff's, not a collector's). */
const customerRows = (ROUTES as readonly RouteDef[]).filter((r) => {
  const caller = EXAMPLES[r.operationId as OperationId].caller;
  return r.tenantScoped && r.auth !== 'iam' && r.groups.length === 0 && caller !== 'collector' && !caller.groups.includes('admin');
});

describe('customer roles on every tenant-scoped row', () => {
  it('walks more than the rows of one kind (the filter did not empty the walk)', () => {
    const mins = new Set(customerRows.map((r) => resolvedMinRole(r)));
    expect(customerRows.length).toBeGreaterThan(25);
    expect([...mins].sort()).toEqual(['admin', 'operator', 'viewer']);
  });

  for (const row of customerRows) {
    const min = resolvedMinRole(row)!;
    it(`${row.operationId} (${row.method} ${row.path}): minRole ${min}`, async () => {
      let reached = false;
      for (const role of CUSTOMER_ROLES) {
        const before = roleAtLeast(role, min) ? '' : await ex.snapshot();
        const res = await ex.handlers[row.handler](exampleEvent(row, { caller: callerOf[role] }), lambdaContext);
        const body = res.body ? (JSON.parse(res.body) as { code?: string; details?: { required?: string } }) : {};
        if (!roleAtLeast(role, min)) {
          expect(res.statusCode, `${role}: ${res.body}`).toBe(403);
          expect(body).toMatchObject({ code: 'ROLE_REQUIRED', details: { required: min } });
          expect(await ex.snapshot(), `${role} wrote something`).toBe(before);
        } else if (!reached || row.method === 'GET') {
          expect(res.statusCode, `${role}: ${res.body}`).toBeGreaterThanOrEqual(200);
          expect(res.statusCode, `${role}: ${res.body}`).toBeLessThan(300);
          reached = true;
        } else {
          expect(body.code, `${role}: ${res.body}`).not.toBe('ROLE_REQUIRED');
        }
      }
    });
  }

  it('staff with TOTP are not judged by customer roles (escalation contacts, an admin row)', async () => {
    const row = (ROUTES as readonly RouteDef[]).find((r) => r.operationId === 'putEscalationContacts')!;
    const res = await ex.handlers[row.handler](exampleEvent(row, { caller: { sub: 'u-soc', groups: ['admin'] }, query: { tenant: 'acme' } }), lambdaContext);
    expect(res.statusCode, res.body).not.toBe(403);
  });
});
