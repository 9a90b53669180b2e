import { beforeEach, describe, expect, it, vi } from 'vitest';

const auth = vi.hoisted(() => ({ fetchAuthSession: vi.fn(), signOut: vi.fn() }));
vi.mock('aws-amplify/auth', () => auth);

import { ApiError, createApiClient } from './api';

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

  it('sends the ID token in Authorization, the query and the JSON body', async () => {
    const fetchImpl = vi.fn(async () => jsonResponse(201, { id: 'INC-000001' }));
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:3001/', fetchImpl });
    const out = await api.post('/incidents', { title: 'x' }, { tenant: 'acme', cursor: undefined });
    expect(out).toEqual({ id: 'INC-000001' });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://127.0.0.1:3001/incidents?tenant=acme');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).Authorization).toBe('id.token.jwt');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"title":"x"}');
  });

  it('maps 4xx to kind client with the API code and request id', async () => {
    const api = createApiClient({
      baseUrl: 'http://api',
      fetchImpl: async () => jsonResponse(409, { code: 'VERSION_CONFLICT', message: 'stale', requestId: 'req-1', details: { currentVersion: 3 } }),
    });
    const err = await api.patch('/incidents/INC-000001', { version: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: 'client', status: 409, code: 'VERSION_CONFLICT', requestId: 'req-1', details: { currentVersion: 3 } });
    expect((err as ApiError).userMessage).toBe('El incidente cambió mientras lo editabas.');
  });

  it('maps 5xx and non-JSON bodies to kind server', async () => {
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl: async () => new Response('<html>bad gateway</html>', { status: 502 }) });
    await expect(api.get('/me')).rejects.toMatchObject({ kind: 'server', status: 502, code: null });
    const api2 = createApiClient({ baseUrl: 'http://api', fetchImpl: async () => new Response('not json', { status: 200 }) });
    await expect(api2.get('/me')).rejects.toMatchObject({ kind: 'server', status: 200 });
  });

  it('maps a rejected fetch to kind network with a Spanish message', async () => {
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl: async () => Promise.reject(new TypeError('Failed to fetch')) });
    const err = (await api.get('/me').catch((e: unknown) => e)) as ApiError;
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
    await expect(api.get('/devices')).rejects.toMatchObject({ kind: 'timeout', status: null });
  });

  it('signs out when there is no session (refresh failed) and does not call the API', async () => {
    auth.fetchAuthSession.mockResolvedValue(session(null));
    const fetchImpl = vi.fn();
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl });
    await expect(api.get('/me')).rejects.toMatchObject({ kind: 'session' });
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it('signs out on HTTP 401 from the authorizer', async () => {
    const api = createApiClient({ baseUrl: 'http://api', fetchImpl: async () => jsonResponse(401, { message: 'Unauthorized' }) });
    await expect(api.get('/me')).rejects.toMatchObject({ kind: 'session', status: 401 });
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });
});
