/**
 * Test helpers for the vitest `web` project (not used by the portal itself): render a tree inside
 * the signed-in providers with a fake API client, a given session and an isolated SWR cache.
 */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { vi } from 'vitest';
import type { ApiClient, CallInput, CsvOperationId } from './api';
import { ApiProvider } from './api-context';
import { routeById } from './contract';
import type { ActivityEvent, AuditEntry, Device, ReportFigures, DeviceAlarm, Incident, Me, OperationId, OperationResponse } from './contract';
import { SessionProvider } from './session';
import type { SessionUser } from './session';
import { TenantProvider } from './tenant';
import type { PortalConfig } from './config';

/** A valid portal configuration (`/config.json`) of the local stack, self sign-up on: the start-up and sign-in tests' base. */
export const TEST_CONFIG: PortalConfig = {
  region: 'eu-west-1',
  userPoolId: 'local_abc123',
  userPoolClientId: 'client123',
  identityPoolId: '',
  apiUrl: 'http://127.0.0.1:3001',
  stage: 'local',
  allowSignUp: true,
  brandName: 'Vigía',
};

export const ME_ACME: Me = {
  sub: 'u-1',
  email: 'ana@acme.test',
  groups: ['acme'],
  isAdmin: false,
  tenants: [{ id: 'acme', name: 'ACME' }],
};

/** Acme's customer admin (`customer-admin` group, `/me` role admin): reaches "Usuarios" (docs/portal.md#team). */
export const ME_ACME_ADMIN: Me = { ...ME_ACME, groups: ['acme', 'customer-admin'], role: 'admin' };

/** A colleague as `GET /team` lists it: an acme operator who has set their password; `overrides` replace any field. */
export function aTeamMember(overrides: Partial<OperationResponse<'listTeam'>['items'][number]> = {}): OperationResponse<'listTeam'>['items'][number] {
  return { username: 'luis@acme.test', email: 'luis@acme.test', name: 'Luis Gil', role: 'operator', enabled: true, status: 'CONFIRMED', federated: false, ...overrides };
}

/** A staff member (`admin` group): every tenant (acme and globex). */
export const ME_STAFF: Me = {
  sub: 's-1',
  email: 'soc@vigia.test',
  groups: ['admin'],
  isAdmin: true,
  tenants: [
    { id: 'acme', name: 'ACME' },
    { id: 'globex', name: 'Globex' },
  ],
};

/** The session user of `ME_STAFF` (for `renderSignedIn`). */
export const STAFF_USER = { email: 'soc@vigia.test', groups: ['admin'] };

/**
 * An incident as the API lists it: tenant acme, high severity, status `new`, opened in the portal by
 * ana@acme.test on 2026-03-01 10:00 UTC with its deadline 8 h later, not triaged, version 1;
 * `overrides` replace any field.
 */
export function anIncident(overrides: Partial<Incident> = {}): Incident {
  return {
    id: 'INC-000001',
    tenantId: 'acme',
    title: 'Phishing',
    description: 'Correo sospechoso',
    severity: 'high',
    status: 'new',
    category: 'phishing',
    source: 'portal',
    reporter: 'ana@acme.test',
    assignee: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    resolvedAt: null,
    slaDueAt: '2026-03-01T18:00:00.000Z',
    version: 1,
    slaTargets: null,
    triagedAt: null,
    firstAcknowledgedAt: null,
    closureRequested: false,
    closedAt: null,
    slaResult: null,
    ...overrides,
  };
}

/**
 * Activity event `n` (1–9) as `GET /activity` lists it: SOC's status change of acme's `INC-00000<n>` (new → in
 * progress, high) at 2026-03-01 10:0<n> UTC, stored without a message key; `over` replaces any field.
 */
export function anActivityEvent(n: number, over: Partial<ActivityEvent> = {}): ActivityEvent {
  return {
    eventId: `01J0000000000000000000000${n}`,
    tenantId: 'acme',
    kind: 'incident.status_changed',
    severity: 'high',
    at: `2026-03-01T10:0${n}:00.000Z`,
    actor: { name: 'soc@vigia.test', sub: 's-soc' },
    subject: { type: 'incident', id: `INC-00000${n}` },
    title: `INC-00000${n}: estado «Nuevo» → «En curso»`,
    link: `/ticket/update/INC-00000${n}?tenant=acme`,
    outbox: 'PENDING',
    ...over,
  };
}

/**
 * A period's report figures (March 2026): 3 incidents (1 critical, 2 high; 2 resolved, 1 within SLA, 1 open past
 * it), MTTA 42.4 min, MTTR 1500 min, fleet 99.71 % against 99.5 % with two devices below, one top alarm;
 * `overrides` replace any field.
 */
export function aReportFigures(overrides: Partial<ReportFigures> = {}): ReportFigures {
  return {
    period: { from: '2026-03-01T00:00:00.000Z', to: '2026-03-31T00:00:00.000Z' },
    incidents: { total: 3, bySeverity: { critical: 1, high: 2, medium: 0, low: 0 }, byStatus: { new: 1, in_progress: 0, on_hold: 0, resolved: 2, closed: 0 } },
    mttaMinutes: 42.4,
    mttrMinutes: 1500,
    sla: { resolved: 2, resolvedWithinSla: 1, compliancePct: 50, openBreached: 1 },
    availability: {
      slaTargetPct: 99.5,
      fleetPct: 99.71,
      belowSla: [
        { tenantId: 'acme', deviceId: 'sw-1', name: 'Switch', availability30d: 98.1 },
        { tenantId: 'acme', deviceId: 'fw-1', name: 'Cortafuegos, sede', availability30d: 99.2 },
      ],
    },
    topAlarms: [{ title: 'CPU alta', count: 4, highestSeverity: 'high' }],
    ...overrides,
  };
}

/**
 * An audit log entry as `GET /audit` lists it: staff `soc@vigia.test` triaged acme's `INC-000042` on
 * 2026-03-01 10:00 UTC (no before/after); `overrides` replace any field.
 */
export function anAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 'a1',
    at: '2026-03-01T10:00:00.000Z',
    tenantId: 'acme',
    actor: { sub: 's-1', email: 'soc@vigia.test' },
    action: 'incident.triage',
    target: { type: 'incident', id: 'INC-000042' },
    requestId: 'req-1',
    sourceIp: '203.0.113.9',
    ...overrides,
  };
}

/**
 * A device alarm as the API lists it: acme's `al-1` "CPU alta" (high, active) on firewall `fw-01` "Cortafuegos",
 * raised 2026-03-01 10:00 UTC, never acknowledged or cleared; `overrides` replace any field.
 */
export function anAlarm(overrides: Partial<DeviceAlarm> = {}): DeviceAlarm {
  return {
    id: 'al-1',
    tenantId: 'acme',
    deviceId: 'fw-01',
    deviceName: 'Cortafuegos',
    title: 'CPU alta',
    severity: 'high',
    state: 'active',
    raisedAt: '2026-03-01T10:00:00.000Z',
    acknowledgedAt: null,
    acknowledgedBy: null,
    clearedAt: null,
    ...overrides,
  };
}

/** A device as the API lists it: acme's online firewall `fw-01` "Cortafuegos" in Madrid, no open alarm; `overrides` replace any field. */
export function aDevice(overrides: Partial<Device> = {}): Device {
  return {
    id: 'fw-01',
    tenantId: 'acme',
    name: 'Cortafuegos',
    type: 'firewall',
    site: 'Madrid',
    ipAddress: '10.0.0.1',
    vendor: 'Fortinet',
    model: 'FortiGate 60F',
    status: 'online',
    lastHeartbeatAt: '2026-03-01T10:00:00.000Z',
    availability30d: 99.9,
    openAlarms: 0,
    ...overrides,
  };
}

/** What a fake answers to operation `Op`: its response, or a function of the call's input returning it (or throwing). */
export type FakeAnswer<Op extends OperationId> = OperationResponse<Op> | ((input: CallInput<Op>) => OperationResponse<Op> | Promise<OperationResponse<Op>>);

/** Fake answers by operation id, each typed as the contract's response of that operation. */
export type FakeAnswers = { readonly [Op in OperationId]?: FakeAnswer<Op> };

/**
 * Why the API would refuse `input` for `op` (400 VALIDATION_FAILED), checked with the route row's own
 * request schemas, or null when it would accept it. The query is checked as the real client sends it:
 * empty values left out, every value a string.
 */
export function requestProblem(op: OperationId, input: { params?: unknown; query?: Record<string, unknown>; body?: unknown }): string | null {
  const { request } = routeById(op);
  const query = Object.fromEntries(
    Object.entries(input.query ?? {})
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  const parts = [
    ['params', request.params, input.params],
    ['query', request.query, query],
    ['body', request.body, input.body],
  ] as const;
  for (const [part, schema, value] of parts) {
    if (!schema) {
      if (value !== undefined) return `${part} sent, but ${op} takes none`;
      continue;
    }
    const result = schema.safeParse(value);
    if (!result.success) return `${part} ${JSON.stringify(value)}: ${result.error.message}`;
  }
  return null;
}

/**
 * A fake `ApiClient` typed like the real one: `answers` maps an operation id (e.g. `getMe`) to its
 * response or to a function of the call's input (`{ params, query, body, headers }`); an operation
 * without an answer rejects, and so does a request the API would refuse (`requestProblem`). Calls are
 * recorded by the `call` / `csv` vi.fn()s, e.g.
 * `expect(api.call).toHaveBeenCalledWith('updateIncident', { params: { id }, body, query: { tenant: 'acme' } })`.
 * An answer that does not match the operation's response type (half a `Device`) does not compile.
 */
export function fakeApi(answers: FakeAnswers) {
  const call = vi.fn(async (op: OperationId, input: Parameters<typeof requestProblem>[1] = {}): Promise<unknown> => {
    const problem = requestProblem(op, input);
    if (problem) {
      console.error(`fakeApi: the API would refuse ${op}: ${problem}`);
      throw new Error(`fakeApi: the API would refuse ${op}: ${problem}`);
    }
    const answer = answers[op];
    if (answer === undefined) throw new Error(`fakeApi: no answer for ${op}`);
    return typeof answer === 'function' ? (answer as (input: unknown) => unknown)(input) : answer;
  });
  const csv = vi.fn(async (op: CsvOperationId, _input?: unknown): Promise<string> => {
    throw new Error(`fakeApi: no CSV for ${op}`);
  });
  // vi.fn() cannot carry ApiClient's per-operation generics; the runtime shape is the same.
  return { call, csv } as unknown as ApiClient & { call: typeof call; csv: typeof csv };
}

export function renderSignedIn(
  ui: ReactElement,
  { path = '/', user = { email: 'ana@acme.test', groups: ['acme'] }, api = fakeApi({ getMe: ME_ACME }), cached = {} }: {
    path?: string;
    user?: SessionUser;
    api?: ApiClient;
    /** Answers already in SWR's cache at the first render (as the sign-in's prefetch leaves them), by serialized key (`unstable_serialize(['getMe', {}])`). */
    cached?: Record<string, unknown>;
  } = {},
) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <SWRConfig value={{ provider: () => new Map(Object.entries(cached).map(([key, data]) => [key, { data }])), dedupingInterval: 0, shouldRetryOnError: false }}>
        <ApiProvider client={api}>
          <SessionProvider value={{ status: 'ready', user }}>
            <TenantProvider>{ui}</TenantProvider>
          </SessionProvider>
        </ApiProvider>
      </SWRConfig>
    </MemoryRouter>,
  );
}
