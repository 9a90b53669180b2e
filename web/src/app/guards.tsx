/**
 * Route guards (docs/portal.md#groups-and-tenants).
 * - `RequireGroupMembership`: a signed-in user in no Cognito group is logged with `console.error` and
 *   signed out globally.
 * - `RequireGroups`: the user must belong to at least one of `groups`, otherwise → `/page/error`.
 */
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { signOutEverywhere, useSession } from '../shared/lib/session';
import { ErrorState, LoadingState } from '../shared/ui/states';
import { ApiError } from '../shared/lib/api';

export function RequireGroupMembership({ children }: { children: ReactNode }) {
  const session = useSession();
  const noGroup = session.status === 'ready' && session.user.groups.length === 0;
  useEffect(() => {
    if (!noGroup) return;
    console.error('[vigia] the signed-in user belongs to no group; signing out');
    void signOutEverywhere();
  }, [noGroup]);
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
