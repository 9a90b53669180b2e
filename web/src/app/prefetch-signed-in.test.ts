/**
 * The sign-in prefetch (docs/portal.md#sign-in-to-dashboard): which requests leave, in which order, and under
 * which SWR keys, with Amplify's session and the network replaced by fakes. A customer's `/summary` leaves
 * without waiting for `/me` (its tenant comes from the ID token's groups, or the choice stored on this browser);
 * staff's waits for `/me`; an account in no group prefetches nothing; and the dashboard's own key finds the
 * request already under way (SWR hands it over instead of calling the fetcher).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const session = vi.hoisted(() => ({ groups: [] as string[], sub: 'user-1' }));
vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: async () => ({
    tokens: { idToken: { payload: { 'cognito:groups': session.groups, sub: session.sub }, toString: () => 'id-token' } },
  }),
  signOut: async () => undefined,
}));
vi.mock('./dashboard-route', () => ({ DashboardPage: { preload: () => Promise.resolve(() => null) } }));

import { renderHook, waitFor } from '@testing-library/react';
import useSWR, { mutate } from 'swr';
import { cache, SWRGlobalState } from 'swr/_internal';
import { jwtClaims, prefetchAfterSignIn, prefetchWithIdToken } from './prefetch-signed-in';
import { TENANT_STORAGE_KEY } from '../shared/lib/tenant';

const API = 'https://api.test';
let requests: string[];
/** The `Authorization` header of each request, in order. */
let tokens: string[];
let answerMe: (body: unknown) => void;

/** A fake `fetch`: `/me` answers when the test says so, anything else at once. */
function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = new URL(String(input));
  requests.push(url.pathname + url.search);
  tokens.push(new Headers(init?.headers).get('Authorization') ?? '');
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  if (url.pathname === '/me') return new Promise((resolve) => (answerMe = (body) => resolve(json(body))));
  return Promise.resolve(json({}));
}

/**
 * Reads `key` with an SWR hook, as the portal's screens do, and resolves with its data; `fetcher` is the hook's
 * own fetcher (not called when a prefetch is under way for the key).
 */
async function readWithHook(key: readonly unknown[], fetcher: () => Promise<unknown>): Promise<unknown> {
  const { result } = renderHook(() => useSWR(key, fetcher));
  await waitFor(() => expect(result.current.data).toBeDefined());
  return result.current.data;
}

/** Lets the prefetch's promise chains run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('prefetchAfterSignIn', () => {
  beforeEach(async () => {
    // SWR's caches empty, as on a page just loaded: no data (a hook then reads at once, and so takes a
    // prefetched request) and no request left in the preload cache by an earlier test (SWR's internal state).
    await mutate(() => true, undefined, { revalidate: false });
    const preloaded = (SWRGlobalState.get(cache) as unknown[])[3] as Record<string, unknown>;
    for (const key of Object.keys(preloaded)) delete preloaded[key];
    requests = [];
    tokens = [];
    session.sub = 'user-1';
    localStorage.clear();
    vi.stubGlobal('fetch', vi.fn(fakeFetch));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("sends a customer's /me and /summary together, the summary for the token's tenant", async () => {
    session.groups = ['acme'];
    await prefetchAfterSignIn(API);
    await settle();
    // /me has not answered: the summary left anyway.
    expect(requests).toEqual(['/me', '/summary?tenant=acme']);
    // The hooks' keys (TenantProvider's ['getMe', {}], the dashboard's ['getSummary', { query: { tenant } }])
    // take the requests under way: their own fetcher is never called and no second request leaves.
    const fetcher = vi.fn(async () => 'own request');
    answerMe({ sub: 's', email: 'ana@acme.example', groups: ['acme'], isAdmin: false, tenants: [{ id: 'acme', name: 'Acme' }] });
    expect(await readWithHook(['getMe', {}], fetcher)).toMatchObject({ email: 'ana@acme.example' });
    expect(await readWithHook(['getSummary', { query: { tenant: 'acme' } }], fetcher)).toEqual({});
    expect(fetcher).not.toHaveBeenCalled();
    expect(requests).toEqual(['/me', '/summary?tenant=acme']);
  });

  it("uses the tenant chosen on this browser when it is one of the customer's", async () => {
    session.groups = ['globex', 'initech'];
    localStorage.setItem(TENANT_STORAGE_KEY, 'initech');
    await prefetchAfterSignIn(API);
    await settle();
    expect(requests).toEqual(['/me', '/summary?tenant=initech']);
    answerMe({ sub: 's', email: 'x@y', groups: session.groups, isAdmin: false, tenants: [] });
  });

  it("waits for /me for staff and asks for the tenant the picker will choose", async () => {
    session.groups = ['admin'];
    await prefetchAfterSignIn(API);
    await settle();
    expect(requests).toEqual(['/me']);
    answerMe({ sub: 's', email: 'admin@vigia.example', groups: ['admin'], isAdmin: true, tenants: [{ id: 'acme', name: 'Acme' }, { id: 'zeta', name: 'Zeta' }] });
    await settle();
    expect(requests).toEqual(['/me', '/summary?tenant=acme']);
  });

  it('prefetches nothing for an account in no group (the portal signs it out)', async () => {
    session.groups = [];
    await prefetchAfterSignIn(API);
    await settle();
    expect(requests).toEqual([]);
  });

  describe('prefetchWithIdToken (the user pool has answered, Amplify has not stored the tokens yet)', () => {
    /** An unsigned JWT with these claims (the portal only reads them; the API verifies the token). */
    const jwt = (claims: object) => `e30.${btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(claims)))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.sig`;

    it('reads the claims of a JWT, and null for anything else', () => {
      expect(jwtClaims(jwt({ sub: 'u', 'cognito:groups': ['acme'], name: 'Añón' }))).toEqual({ sub: 'u', 'cognito:groups': ['acme'], name: 'Añón' });
      expect(jwtClaims('not a token')).toBeNull();
      expect(jwtClaims('a.!!!.c')).toBeNull();
    });

    it("sends a customer's /me and /summary with the answer's token, and hands them over at signedIn for the same user", async () => {
      session.groups = ['umbrella'];
      const early = jwt({ sub: 'user-1', 'cognito:groups': ['umbrella'] });
      prefetchWithIdToken(API, early);
      await settle();
      expect(requests).toEqual(['/me', '/summary?tenant=umbrella']);
      expect(tokens).toEqual([early, early]);
      await prefetchAfterSignIn(API);
      await settle();
      // signedIn for the same user: nothing is sent again, the dashboard's hook takes the early summary.
      expect(requests).toEqual(['/me', '/summary?tenant=umbrella']);
      const fetcher = vi.fn(async () => 'own request');
      expect(await readWithHook(['getSummary', { query: { tenant: 'umbrella' } }], fetcher)).toEqual({});
      expect(fetcher).not.toHaveBeenCalled();
      answerMe({ sub: 'user-1', email: 'x@y', groups: ['umbrella'], isAdmin: false, tenants: [] });
    });

    it('puts the answers straight into SWR when the portal opens at once: a screen mounted after them renders them at its first render, with no request of its own', async () => {
      session.groups = ['umbrella'];
      prefetchWithIdToken(API, jwt({ sub: 'user-1', email_verified: true, 'cognito:groups': ['umbrella'] }), { portalOpens: true });
      await settle();
      const key = ['getSummary', { query: { tenant: 'umbrella' } }] as const;
      const fetcher = vi.fn(async () => 'own request');
      const renders: unknown[] = [];
      renderHook(() => {
        const swr = useSWR(key, fetcher);
        renders.push(swr.data);
        return swr;
      });
      // The first render already has the summary (not undefined, then the data one render later).
      expect(renders[0]).toEqual({});
      await settle();
      expect(fetcher).not.toHaveBeenCalled();
      // signedIn afterwards starts nothing more for this user.
      await prefetchAfterSignIn(API);
      await settle();
      expect(requests).toEqual(['/me', '/summary?tenant=umbrella']);
      answerMe({ sub: 'user-1', email: 'x@y', groups: ['umbrella'], isAdmin: false, tenants: [] });
    });

    it("drops another user's early requests: the stored session's own are sent", async () => {
      session.groups = ['acme'];
      prefetchWithIdToken(API, jwt({ sub: 'someone-else', 'cognito:groups': ['acme'] }));
      await settle();
      await prefetchAfterSignIn(API);
      await settle();
      expect(requests).toEqual(['/me', '/summary?tenant=acme', '/me', '/summary?tenant=acme']);
      expect(tokens.slice(2)).toEqual(['id-token', 'id-token']);
      answerMe({ sub: 'user-1', email: 'x@y', groups: ['acme'], isAdmin: false, tenants: [] });
    });

    it("starts only staff's /me (their summary's tenant comes from it), and nothing without groups or sub", async () => {
      prefetchWithIdToken(API, jwt({ sub: 'staff-1', 'cognito:groups': ['admin'] }));
      prefetchWithIdToken(API, jwt({ sub: 'u' }));
      prefetchWithIdToken(API, jwt({ 'cognito:groups': ['acme'] }));
      await settle();
      expect(requests).toEqual(['/me']);
    });
  });
});
