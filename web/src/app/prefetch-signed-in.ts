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
 */
import { preload } from 'swr';
import { fetchAuthSession } from 'aws-amplify/auth';
import { createApiClient } from '../shared/lib/api';
import type { ApiClient } from '../shared/lib/api';
import { callOp } from '../shared/lib/api-context';
import type { ApiKey } from '../shared/lib/api-context';
import { ADMIN_GROUP } from '../shared/lib/contract';
import type { Me } from '../shared/lib/contract';
import { parseGroups } from '../shared/lib/session';
import { pickActiveTenant, readStoredTenant } from '../shared/lib/tenant';
import { DashboardPage } from './dashboard-route';

const clients = new Map<string, ApiClient>();

/**
 * The signed-in portal's API client for `apiUrl`: one per page, shared by `SignedInApp` and the prefetch, so
 * the prefetched responses went through the same client the screens use.
 */
export function apiClientFor(apiUrl: string): ApiClient {
  let client = clients.get(apiUrl);
  if (!client) clients.set(apiUrl, (client = createApiClient({ baseUrl: apiUrl })));
  return client;
}

/** Puts `key`'s request in SWR's preload cache (once per key until a hook takes it); failures are left to the hook. */
function prefetch<K extends ApiKey>(api: ApiClient, key: K) {
  const request = preload(key, ([op, input]: K) => callOp(api, op, input));
  request.catch(() => undefined);
  return request;
}

/**
 * Starts the dashboard's chunk and the first screen's data after a sign-in (see the module comment).
 * Resolves when the requests are started; never rejects (nothing to prefetch without an ID token or groups:
 * an account in no group is signed out by the portal's guard).
 */
export async function prefetchAfterSignIn(apiUrl: string): Promise<void> {
  DashboardPage.preload().catch(() => undefined);
  let groups: string[];
  try {
    const session = await fetchAuthSession();
    groups = parseGroups(session.tokens?.idToken?.payload['cognito:groups']);
  } catch {
    return;
  }
  if (groups.length === 0) return;
  const api = apiClientFor(apiUrl);
  const me = prefetch(api, ['getMe', {}] as ApiKey<'getMe'>) as Promise<Me>;
  const summary = (tenant: string | null) => {
    if (tenant) prefetch(api, ['getSummary', { query: { tenant } }] as ApiKey<'getSummary'>);
  };
  if (groups.includes(ADMIN_GROUP)) {
    me.then((m) => summary(pickActiveTenant(m.tenants.map((t) => t.id), readStoredTenant())), () => undefined);
  } else {
    summary(pickActiveTenant(groups, readStoredTenant()));
  }
}
