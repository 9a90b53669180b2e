/**
 * What a sign-in starts at once, before the signed-in portal has rendered (docs/portal.md#sign-in-to-dashboard).
 *
 * `AuthGate` loads this small chunk on the Hub's `signedIn` event (the ID token is stored by then) together
 * with the signed-in portal's chunk, and calls {@link prefetchAfterSignIn}: the caller's `GET /me` and the
 * dashboard's `GET /summary` go out while that chunk downloads and renders, into SWR's preload cache under
 * the keys the portal reads them with (`TenantProvider`'s `['getMe', {}]`, the dashboard's `useSummary`
 * `['getSummary', { query: { tenant } }]`), and the dashboard's screen chunk is loaded. When the portal
 * mounts, SWR hands those hooks the requests already under way instead of starting new ones (SWR `preload`).
 *
 * The summary's tenant is the one `TenantProvider` will pick (`pickActiveTenant`, the choice stored on this
 * browser or the first tenant): for a customer the tenants are the ID token's groups other than `admin`, in
 * `/me`'s order (`lambdas/domain/identity.ts`, `describeMe`), so `/me` and `/summary` go out together; staff
 * (`admin`) have every registered tenant, known only from `/me`, so their summary follows it. A guess that
 * `/me` contradicts (a group that is not a registered tenant) costs one unused request; the dashboard then
 * asks for its own tenant as usual.
 *
 * Earlier still: {@link prefetchWithIdToken} starts the same requests with the ID token of the user pool's
 * answer (`sign-in-tokens.ts`), while Amplify computes the device verifier and confirms the device (it fires
 * `signedIn` only after that). They are kept here, not in SWR's cache; {@link prefetchAfterSignIn} hands them
 * to SWR only when the stored session is the same user's (the token's `sub`), else they are dropped and the
 * requests are sent again with the stored session. A request started early that failed is sent again too.
 */
import { mutate, preload } from 'swr';
import { fetchAuthSession } from 'aws-amplify/auth';
import { createApiClient } from '../shared/lib/api';
import type { ApiClient } from '../shared/lib/api';
import { callOp } from '../shared/lib/api-context';
import type { ApiKey } from '../shared/lib/api-context';
import { ADMIN_GROUP } from '../shared/lib/contract';
import type { Me } from '../shared/lib/contract';
import { parseGroups } from '../shared/lib/session';
import { jwtClaims } from '../shared/lib/pending-sign-in';
import { pickActiveTenant, readStoredTenant } from '../shared/lib/tenant';
import { DashboardPage } from './dashboard-route';

const clients = new Map<string, ApiClient>();

/** Requests started by {@link prefetchWithIdToken}: the token's user (`sub`) and each request by its SWR key. */
let early: { sub: string; requests: Map<string, Promise<unknown>>; handedToSwr: boolean } | null = null;

export { jwtClaims };

/** The SWR key of a call as a map key (`['getSummary', { query: { tenant } }]` → its JSON). */
const keyText = (key: ApiKey) => JSON.stringify(key);

/**
 * The signed-in portal's API client for `apiUrl`: one per page, shared by `SignedInApp` and the prefetch, so
 * the prefetched responses went through the same client the screens use.
 */
export function apiClientFor(apiUrl: string): ApiClient {
  let client = clients.get(apiUrl);
  if (!client) clients.set(apiUrl, (client = createApiClient({ baseUrl: apiUrl })));
  return client;
}

/**
 * Puts `key`'s request in SWR's preload cache (once per key until a hook takes it); failures are left to the hook.
 * `started`: the same user's request already under way (`prefetchWithIdToken`), used instead of a new one
 * unless it fails.
 */
function prefetch<K extends ApiKey>(api: ApiClient, key: K, started?: Map<string, Promise<unknown>>) {
  const request = preload(key, ([op, input]: K) => {
    const sent = started?.get(keyText(key));
    return sent ? sent.catch(() => callOp(api, op, input)) : callOp(api, op, input);
  });
  request.catch(() => undefined);
  return request;
}

/** The tenant whose summary the dashboard will ask for, from a customer's groups (null for staff or none). */
function customerTenant(groups: string[]): string | null {
  return groups.includes(ADMIN_GROUP) ? null : pickActiveTenant(groups, readStoredTenant());
}

/**
 * Starts `/me` and a customer's `/summary` with `idToken`, the ID token the user pool has just answered a
 * sign-in with, before Amplify stores it (see the module comment). The requests are kept for
 * {@link prefetchAfterSignIn}; a later call replaces them. Staff's summary waits for `/me` (their tenants are
 * known from it) and is not started here. A 401 is not a session loss here (nothing is signed out: the
 * sign-in is still under way). `portalOpens`: the gate opens the portal now, before `signedIn`
 * (`opensPortalAtOnce`), so the requests go straight into SWR's preload cache and {@link prefetchAfterSignIn}
 * starts nothing more for this user. Resolves when the requests and the dashboard's chunk have settled; never
 * rejects.
 */
export function prefetchWithIdToken(apiUrl: string, idToken: string, options: { portalOpens?: boolean } = {}): Promise<void> {
  const claims = jwtClaims(idToken);
  const sub = claims?.sub;
  const groups = parseGroups(claims?.['cognito:groups']);
  if (typeof sub !== 'string' || groups.length === 0) return Promise.resolve();
  const api = createApiClient({ baseUrl: apiUrl, getIdToken: () => Promise.resolve(idToken), onSessionExpired: () => undefined });
  const requests = new Map<string, Promise<unknown>>();
  const start = <K extends ApiKey>(key: K) => {
    const request = callOp(api, key[0], key[1] as never) as Promise<unknown>;
    request.catch(() => undefined);
    requests.set(keyText(key), request);
    // The gate opens the portal now, before `signedIn`: a hook mounted before the answer takes this request from
    // SWR's preload cache (sent again through the portal's client if it failed); the answer also goes into SWR's
    // cache, so a hook mounted after it renders the data in its first render instead of one render later.
    if (options.portalOpens) {
      preload(key, ([op, input]: K) => request.catch(() => callOp(apiClientFor(apiUrl), op, input))).catch(() => undefined);
      request.then((data) => mutate(key, data, { revalidate: false }), () => undefined);
    }
  };
  start(['getMe', {}] as ApiKey<'getMe'>);
  const tenant = customerTenant(groups);
  if (tenant) start(['getSummary', { query: { tenant } }] as ApiKey<'getSummary'>);
  early = { sub, requests, handedToSwr: options.portalOpens === true };
  const screen = DashboardPage.preload().catch(() => undefined);
  return Promise.allSettled([screen, ...requests.values()]).then(() => undefined);
}

/**
 * Starts the dashboard's chunk and the first screen's data after a sign-in (see the module comment).
 * Resolves when the requests are started; never rejects (nothing to prefetch without an ID token or groups:
 * an account in no group is signed out by the portal's guard).
 */
export async function prefetchAfterSignIn(apiUrl: string): Promise<void> {
  DashboardPage.preload().catch(() => undefined);
  let groups: string[];
  let sub: unknown;
  try {
    const session = await fetchAuthSession();
    groups = parseGroups(session.tokens?.idToken?.payload['cognito:groups']);
    sub = session.tokens?.idToken?.payload.sub;
  } catch {
    early = null;
    return;
  }
  // Only this user's early requests are handed over (and only once); already in SWR's hands when the portal opened early.
  const mine = early && early.sub === sub ? early : null;
  early = null;
  if (mine?.handedToSwr) return;
  const started = mine?.requests;
  if (groups.length === 0) return;
  const api = apiClientFor(apiUrl);
  const me = prefetch(api, ['getMe', {}] as ApiKey<'getMe'>, started) as Promise<Me>;
  const summary = (tenant: string | null) => {
    if (tenant) prefetch(api, ['getSummary', { query: { tenant } }] as ApiKey<'getSummary'>, started);
  };
  if (groups.includes(ADMIN_GROUP)) {
    me.then((m) => summary(pickActiveTenant(m.tenants.map((t) => t.id), readStoredTenant())), () => undefined);
  } else {
    summary(customerTenant(groups));
  }
}
