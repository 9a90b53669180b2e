import { beforeEach, describe, expect, it, vi } from 'vitest';

const auth = vi.hoisted(() => ({ fetchAuthSession: vi.fn(), signOut: vi.fn() }));
vi.mock('aws-amplify/auth', () => auth);

import { ApiError, createApiClient } from './api';
import { fakeApi, requestProblem } from './test-utils';
import { clearSessionRevoked, SESSION_REVOKED_KEY } from './session-revoked';
import { clearPendingIdToken, setPendingIdToken } from './pending-sign-in';

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

function session(token: string | null) {
  return { tokens: token ? { idToken: { toString: () => token, payload: {} } } : undefined };
}

describe('api client', () => {
  beforeEach(() => {
    auth.fetchAuthSession.mockReset().mockResolvedValue(session('id.token.jwt'));
    auth.signOut.mockReset().mockResolvedValue(undefined);
  });

  it("takes method and path from the operation's route row; sends the ID token, the query, the headers and the JSON body", async () => {
    const fetchImpl = vi.fn(async () => jsonResponse(201, { id: 'INC-000001' }));
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:3001/', fetchImpl });
    const body = { title: 'Phishing', description: 'Correo sospechoso', severity: 'high' } as const;
    const out = await api.call('createIncident', { body, query: { tenant: 'acme' }, headers: { 'Idempotency-Key': 'k-1' } });
    expect(out).toEqual({ id: 'INC-000001' });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://127.0.0.1:3001/incidents?tenant=acme');
    expect(init.method).toBe('POST');
    const headers = init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('id.token.jwt');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['Idempotency-Key']).toBe('k-1');
    expect(init.body).toBe(JSON.stringify(body));
  });

  it('fills and encodes path parameters, leaves out empty query values and sends no body when the operation has none', async () => {
    const fetchImpl = vi.fn(async () => jsonResponse(200, {}));
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl });
    await api.call('acknowledgeAlarm', { params: { deviceId: 'fw 01', alarmId: 'a/1' }, query: { tenant: 'acme' } });
    await api.call('listIncidents', { query: { tenant: 'acme', cursor: undefined, q: '', status: 'new,on_hold' } });
    await api.call('getMe');
    const calls = fetchImpl.mock.calls as unknown as [string, RequestInit][];
    expect(calls.map(([url, init]) => `${init.method} ${url}`)).toEqual([
      'POST http://api/devices/fw%2001/alarms/a%2F1/acknowledge?tenant=acme',
      'GET http://api/incidents?tenant=acme&status=new%2Con_hold',
      'GET http://api/me',
    ]);
    expect(calls[0]![1].body).toBeUndefined();
    expect((calls[0]![1].headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('sends the last ETag of a GET as If-None-Match and answers the remembered body on 304', async () => {
    const summary = { tenantId: 'acme', incidents: { open: 3 } };
    const fetchImpl = vi
      .fn()
      .mockResolvedValueOnce(jsonResponse(200, summary, { ETag: 'W/"s1.7.abc.0123456789ab"' }))
      .mockResolvedValueOnce(new Response(null, { status: 304, headers: { ETag: 'W/"s1.7.abc.0123456789ab"' } }))
      .mockResolvedValueOnce(jsonResponse(200, { ...summary, incidents: { open: 4 } }, { ETag: 'W/"s1.8.abc.0123456789ab"' }))
      .mockResolvedValueOnce(jsonResponse(200, summary));
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl });
    expect(await api.call('getSummary', { query: { tenant: 'acme' } })).toEqual(summary);
    expect(await api.call('getSummary', { query: { tenant: 'acme' } })).toEqual(summary);
    expect(await api.call('getSummary', { query: { tenant: 'acme' } })).toEqual({ ...summary, incidents: { open: 4 } });
    // Another URL has no ETag remembered.
    await api.call('getSummary', { query: { tenant: 'globex' } });
    const sent = (fetchImpl.mock.calls as unknown as [string, RequestInit][]).map(([, init]) => (init.headers as Record<string, string>)['If-None-Match']);
    expect(sent).toEqual([undefined, 'W/"s1.7.abc.0123456789ab"', 'W/"s1.7.abc.0123456789ab"', undefined]);
  });

  it('downloads CSV operations as text (format=csv, Accept: text/csv)', async () => {
    const fetchImpl = vi.fn(async () => new Response('section,key,value\r\n', { status: 200, headers: { 'Content-Type': 'text/csv; charset=utf-8' } }));
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl });
    const text = await api.csv('getReport', { query: { tenant: 'acme', from: '2026-03-01T00:00:00.000Z' } });
    expect(text).toBe('section,key,value\r\n');
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://api/reports?tenant=acme&from=2026-03-01T00%3A00%3A00.000Z&format=csv');
    expect((init.headers as Record<string, string>).Accept).toBe('text/csv');
    // @ts-expect-error -- only operations whose query offers format=csv have a CSV download
    await api.csv('listIncidents').catch(() => undefined);
  });

  it('maps 4xx to kind client with the API code and request id', async () => {
    const api = createApiClient({
      baseUrl: 'http://api',
      fetchImpl: async () => jsonResponse(409, { code: 'VERSION_CONFLICT', message: 'stale', requestId: 'req-1', details: { currentVersion: 3 } }),
    });
    const err = await api.call('updateIncident', { params: { id: 'INC-000001' }, body: { version: 2, status: 'in_progress' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: 'client', status: 409, code: 'VERSION_CONFLICT', requestId: 'req-1', details: { currentVersion: 3 } });
    expect((err as ApiError).userMessage).toBe('El incidente cambió mientras lo editabas.');
  });

  it('names an assignee the API refuses (400 UNKNOWN_ASSIGNEE) in Spanish', async () => {
    const api = createApiClient({
      baseUrl: 'http://api',
      fetchImpl: async () => jsonResponse(400, { code: 'UNKNOWN_ASSIGNEE', message: 'x', requestId: 'req-2', details: { fields: ['assignee'] } }),
    });
    const err = (await api.call('updateIncident', { params: { id: 'INC-000001' }, body: { version: 2, assignee: 'nadie@x.example' } }).catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ kind: 'client', status: 400, code: 'UNKNOWN_ASSIGNEE', details: { fields: ['assignee'] } });
    expect(err.userMessage).toBe('La persona asignada no es un usuario activo del cliente ni del SOC. Elige una de la lista.');
  });

  it('maps 5xx and non-JSON bodies to kind server', async () => {
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl: async () => new Response('<html>bad gateway</html>', { status: 502 }) });
    await expect(api.call('getMe')).rejects.toMatchObject({ kind: 'server', status: 502, code: null });
    const api2 = createApiClient({ baseUrl: 'http://api', fetchImpl: async () => new Response('not json', { status: 200 }) });
    await expect(api2.call('getMe')).rejects.toMatchObject({ kind: 'server', status: 200 });
  });

  // The API answers 503 SERVICE_UNAVAILABLE with Retry-After when DynamoDB throttles or cannot be reached
  // (docs/api.md#errors; DynamoDB throttling: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html).
  it('maps 503 SERVICE_UNAVAILABLE to a retryable server error with a Spanish message', async () => {
    const api = createApiClient({
      baseUrl: 'http://api',
      fetchImpl: async () => jsonResponse(503, { code: 'SERVICE_UNAVAILABLE', message: 'retry later', requestId: 'req-9' }, { 'Retry-After': '2' }),
    });
    const err = (await api.call('listIncidents', { query: { tenant: 'acme' } }).catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ kind: 'server', status: 503, code: 'SERVICE_UNAVAILABLE', requestId: 'req-9' });
    expect(err.userMessage).toBe('El servicio no está disponible en este momento. Inténtalo de nuevo en unos segundos.');
  });

  it('maps a rejected fetch to kind network with a Spanish message', async () => {
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl: async () => Promise.reject(new TypeError('Failed to fetch')) });
    const err = (await api.call('getMe').catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('network');
    expect(err.status).toBeNull();
    expect(err.userMessage).toMatch(/No se pudo conectar/);
  });

  it('aborts after the timeout and reports kind timeout', async () => {
    const fetchImpl = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl, timeoutMs: 20 });
    await expect(api.call('listDevices')).rejects.toMatchObject({ kind: 'timeout', status: null });
  });

  it('signs out when there is no session (refresh failed) and does not call the API', async () => {
    auth.fetchAuthSession.mockResolvedValue(session(null));
    const fetchImpl = vi.fn();
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl });
    await expect(api.call('getMe')).rejects.toMatchObject({ kind: 'session' });
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it("uses a pending sign-in's token before Amplify has stored the session, and the stored one after", async () => {
    const pendingToken = `e30.${btoa(JSON.stringify({ sub: 'u', exp: 4102444800 })).replace(/=+$/, '')}.sig`;
    auth.fetchAuthSession.mockResolvedValue(session(null));
    setPendingIdToken(pendingToken);
    try {
      const fetchImpl = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => jsonResponse(200, {}));
      const api = createApiClient({ baseUrl: 'http://api', fetchImpl });
      await api.call('getMe');
      expect((fetchImpl.mock.calls[0]![1]!.headers as Record<string, string>).Authorization).toBe(pendingToken);
      auth.fetchAuthSession.mockResolvedValue(session('id.token.jwt'));
      await api.call('getMe');
      expect((fetchImpl.mock.calls[1]![1]!.headers as Record<string, string>).Authorization).toBe('id.token.jwt');
      expect(auth.signOut).not.toHaveBeenCalled();
    } finally {
      clearPendingIdToken();
    }
  });

  it('signs out on HTTP 401 from the authorizer', async () => {
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl: async () => jsonResponse(401, { message: 'Unauthorized' }) });
    await expect(api.call('getMe')).rejects.toMatchObject({ kind: 'session', status: 401 });
    expect(auth.signOut).toHaveBeenCalledTimes(1);
    expect(window.sessionStorage.getItem(SESSION_REVOKED_KEY)).toBeNull();
  });

  it('on 401 SESSION_REVOKED marks why (the sign-in page says so), then signs out (docs/portal.md#session-loss)', async () => {
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl: async () => jsonResponse(401, { code: 'SESSION_REVOKED', message: 'ended', requestId: 'r' }) });
    const err = (await api.call('getMe').catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ kind: 'session', status: 401, code: 'SESSION_REVOKED' });
    expect(err.userMessage).toMatch(/administrador/);
    expect(auth.signOut).toHaveBeenCalledTimes(1);
    expect(window.sessionStorage.getItem(SESSION_REVOKED_KEY)).toBe('1');
    clearSessionRevoked();
    expect(window.sessionStorage.getItem(SESSION_REVOKED_KEY)).toBeNull();
  });
});

describe('fake API of the web tests', () => {
  it("refuses what the API would refuse, with the route row's request schemas", async () => {
    expect(requestProblem('listIncidents', { query: { tenant: 'acme', status: 'new,on_hold', limit: 20, cursor: undefined } })).toBeNull();
    expect(requestProblem('listIncidents', { query: { sort: 'random' } })).toMatch(/^query/);
    expect(requestProblem('listIncidents', { query: { unknown: 'x' } })).toMatch(/^query/);
    expect(requestProblem('getIncident', { params: { id: 'not-an-id' } })).toMatch(/^params/);
    expect(requestProblem('acknowledgeAlarm', { params: { deviceId: 'fw-01', alarmId: 'al-1' }, body: {} })).toBe('body sent, but acknowledgeAlarm takes none');
    expect(requestProblem('updateRecommendation', { params: { id: 'rec-1' }, body: { status: 'accepted' } })).toMatch(/^body/);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi({ getIncident: () => { throw new Error('not reached'); } });
    await expect(api.call('getIncident', { params: { id: 'x' } })).rejects.toThrow(/would refuse getIncident: params/);
  });
});
