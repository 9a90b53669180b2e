/**
 * `/page/logout` (docs/portal.md#sign-out): signs the user out globally, then goes to `/page/login` (the sign-in gate
 * renders the sign-in form there once Amplify reports the sign-out).
 */
import { useEffect, useRef } from 'react';
import { signOutEverywhere } from '../../shared/lib/session';
import { LoadingScreen } from '../../shared/ui/LoadingScreen';
import { t as msg } from '../../shared/lib/messages';

export function LogoutPage() {
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return; // StrictMode runs effects twice in development
    started.current = true;
    void signOutEverywhere().finally(() => window.history.replaceState(null, '', '/page/login'));
  }, []);
  return <LoadingScreen label={msg('account.logout.signingOut')} />;
}
