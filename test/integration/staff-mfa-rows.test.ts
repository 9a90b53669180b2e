/**
 * Staff TOTP at the route-row level (docs/api.md#staff-accounts-and-totp), over the REAL handlers and
 * dynoxide (in memory, random port): EVERY row of the route table is called with a member of `admin` whose ID
 * token lacks `vigia:mfa` = `totp`.
 *
 *  - rows with `staffReach` `all` (staff-only rows and the audit log, JSON and CSV, with and without
 *    `tenant`) → 403 MFA_REQUIRED, also for a staff member that belongs to a tenant itself, and nothing written;
 *  - rows with `staffReach` `tenant` asked for another tenant → 403 MFA_REQUIRED, nothing written; asked for
 *    the caller's own tenant they keep answering (documented: an `admin` member in a tenant group);
 *  - `self` (`/me`) keeps answering, so the portal can load and lead to the TOTP set-up;
 *  - customers are unaffected: never MFA_REQUIRED, their own rows answer 2xx, staff rows 403 FORBIDDEN.
 *
 * Before the rule moved to the rows, `GET /audit`, `/audit?tenant=globex` and its CSV answered 200 to staff
 * without TOTP (issue 29, point 1).
 */
import { describe, expect, it } from 'vitest';
import { EXAMPLES, exampleEvent, type Example } from '../support/route-examples.js';
import { ROUTES, type OperationId, type RouteDef } from '../../lambdas/contract/routes.js';
import { lambdaContext, type CallerSpec } from '../support/events.js';
import { useExampleApi } from '../support/example-api.js';

const TABLE = 'vigia-staff-mfa-main';
const ex = useExampleApi({ table: TABLE });
const { handlers, snapshot } = ex;

/** Staff without TOTP (no tenant of its own); staff without TOTP that is also in acme; a customer of acme. */
const STAFF: CallerSpec = { sub: 'u-soc-nototp', groups: ['admin'], mfa: false };
const STAFF_IN_ACME: CallerSpec = { sub: 'u-soc-acme', groups: ['admin', 'acme'], mfa: false };
// Acme's customer admin (docs/api.md#customer-roles): every customer row is open to that role.
const CUSTOMER: CallerSpec = { sub: 'u-acme', groups: ['acme', 'customer-admin'] };
const ROWS = (ROUTES as readonly RouteDef[]).filter((r) => r.auth !== 'iam');

const send = (row: RouteDef, change: Partial<Example>) => handlers[row.handler](exampleEvent(row, change), lambdaContext);
const codeOf = (body: string): string | undefined => (JSON.parse(body) as { code?: string }).code;
const exampleOf = (row: RouteDef): Example => EXAMPLES[row.operationId as OperationId];

describe('every row of the route table declares how far staff reach through it', () => {
  it('each kind is present (a row added without it would not compile)', () => {
    const kinds = new Set(ROWS.map((r) => r.staffReach));
    expect([...kinds].sort()).toEqual(['all', 'self', 'tenant']);
    expect(ROWS.find((r) => r.operationId === 'listAuditLog')?.staffReach).toBe('all');
  });
});

describe('staff without TOTP: 403 MFA_REQUIRED on every staff-reachable row, nothing written', () => {
  for (const row of ROWS.filter((r) => r.staffReach === 'all')) {
    const ex = exampleOf(row);
    // The audit log also with a tenant and as CSV (the three forms that answered 200 before).
    const queries = row.operationId === 'listAuditLog' ? [{}, { tenant: 'globex' }, { tenant: 'acme' }, { format: 'csv' }, { tenant: 'globex', format: 'csv' }] : [ex.query];
    for (const caller of [STAFF, STAFF_IN_ACME]) {
      it(`${row.operationId} (all) — ${caller.sub}`, async () => {
        const before = await snapshot();
        for (const query of queries) {
          const res = await send(row, { caller, query });
          expect({ query, status: res.statusCode, code: codeOf(res.body) }).toEqual({ query, status: 403, code: 'MFA_REQUIRED' });
        }
        expect(await snapshot()).toBe(before);
      });
    }
  }

  for (const row of ROWS.filter((r) => r.staffReach === 'tenant')) {
    it(`${row.operationId} (tenant) — another tenant`, async () => {
      const ex = exampleOf(row);
      const before = await snapshot();
      for (const [caller, tenant] of [[STAFF, 'globex'], [STAFF, 'acme'], [STAFF_IN_ACME, 'globex']] as const) {
        const res = await send(row, { caller, query: { ...ex.query, tenant } });
        expect({ caller: caller.sub, tenant, status: res.statusCode, code: codeOf(res.body) }).toEqual({ caller: caller.sub, tenant, status: 403, code: 'MFA_REQUIRED' });
      }
      expect(await snapshot()).toBe(before);
    });
  }

  it('the same staff member with TOTP reads the audit log of every tenant (the claim is the only difference)', async () => {
    const row = ROWS.find((r) => r.operationId === 'listAuditLog')!;
    for (const query of [{}, { tenant: 'globex' }, { format: 'csv' }] as Record<string, string>[]) {
      const res = await send(row, { caller: { ...STAFF, mfa: true }, query });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('what keeps answering without TOTP', () => {
  it('/me (self) for staff', async () => {
    const row = ROWS.find((r) => r.staffReach === 'self')!;
    expect((await send(row, { caller: STAFF })).statusCode).toBe(200);
  });

  it("a staff member's own tenant on the read-only tenant rows", async () => {
    for (const row of ROWS.filter((r) => r.staffReach === 'tenant' && r.method === 'GET')) {
      const res = await send(row, { caller: STAFF_IN_ACME, query: { ...exampleOf(row).query, tenant: 'acme' } });
      expect({ op: row.operationId, status: res.statusCode }).toEqual({ op: row.operationId, status: 200 });
    }
  });
});

describe('customers are unaffected', () => {
  // Runs last: the customer's examples write (incidents, comments, webhooks…).
  for (const row of ROWS) {
    it(`${row.operationId} (${row.staffReach})`, async () => {
      const ex = exampleOf(row);
      const res = await send(row, { caller: CUSTOMER, query: ex.query });
      expect(codeOf(res.body ?? '{}') ?? '').not.toBe('MFA_REQUIRED');
      if (row.groups.length > 0) expect({ status: res.statusCode, code: codeOf(res.body) }).toEqual({ status: 403, code: 'FORBIDDEN' });
      else expect(res.statusCode, res.body).toBeLessThan(300);
    });
  }
});
