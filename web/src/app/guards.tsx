/**
 * Route guards (docs/portal.md#groups-and-tenants).
 * - `RequireGroupMembership`: a signed-in user in no Cognito group is logged with `console.error`, marked as
 *   waiting for access (the sign-in gate shows the waiting page) and signed out globally.
 * - `RequireGroups`: the user must belong to at least one of `groups`, otherwise → `/page/error`.
 */
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { signOutEverywhere, useSession } from '../shared/lib/session';
import { markAwaitingAccess } from '../shared/lib/awaiting-access';
import { ErrorState, LoadingState } from '../shared/ui/states';
import { ApiError } from '../shared/lib/api';

export function RequireGroupMembership({ children }: { children: ReactNode }) {
  const session = useSession();
  const noGroup = session.status === 'ready' && session.user.groups.length === 0;
  const email = session.status === 'ready' ? session.user.email : '';
  useEffect(() => {
    if (!noGroup) return;
    console.error('[vigia] the signed-in user belongs to no group; signing out');
    // The sign-in gate shows the waiting page (docs/portal.md#groups-and-tenants) while the sign-out runs.
    markAwaitingAccess(email);
    void signOutEverywhere();
  }, [noGroup, email]);
  if (session.status === 'loading' || noGroup) return <LoadingState />;
  if (session.status === 'error') {
    return (
      <main className="app-main">
        <ErrorState error={new ApiError({ kind: 'session', message: String(session.error) })} onRetry={() => void signOutEverywhere()} />
      </main>
    );
  }
  return <>{children}</>;
}

export function RequireGroups({ groups, children }: { groups: readonly string[]; children: ReactNode }) {
  const session = useSession();
  if (session.status !== 'ready') return <LoadingState />;
  const allowed = groups.length === 0 || session.user.groups.some((g) => groups.includes(g));
  return allowed ? <>{children}</> : <Navigate to="/page/error" replace />;
}
