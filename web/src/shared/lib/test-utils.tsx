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
import type { Me, OperationId, OperationResponse } from './contract';
import { SessionProvider } from './session';
import type { SessionUser } from './session';
import { TenantProvider } from './tenant';

export const ME_ACME: Me = {
  sub: 'u-1',
  email: 'ana@acme.test',
  groups: ['acme'],
  isAdmin: false,
  tenants: [{ id: 'acme', name: 'ACME' }],
};

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
  { path = '/', user = { email: 'ana@acme.test', groups: ['acme'] }, api = fakeApi({ getMe: ME_ACME }) }: {
    path?: string;
    user?: SessionUser;
    api?: ApiClient;
  } = {},
) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}>
        <ApiProvider client={api}>
          <SessionProvider value={{ status: 'ready', user }}>
            <TenantProvider>{ui}</TenantProvider>
          </SessionProvider>
        </ApiProvider>
      </SWRConfig>
    </MemoryRouter>,
  );
}
