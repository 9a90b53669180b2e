/**
 * The sign-in page and the gate in front of the signed-in portal.
 *
 * Signed out: Amplify UI's `<Authenticator>` (e-mail login, Spanish texts, remote errors in its alert),
 * at `/page/login` — or `/page/register`, which opens on "Crear cuenta" when self sign-up is allowed.
 * Any other address visited while signed out is rewritten to `/page/login`.
 * Signed in: the portal (router, SWR, shell, pages) is a `React.lazy` chunk, so the sign-in page only
 * loads the Authenticator (docs/portal.md#bundles).
 * After a sign-in (a signed-out → signed-in transition on this page) the portal opens at `/` (docs/portal.md#sign-in);
 * after a sign-out the form is on "Iniciar sesión" (docs/portal.md#sign-out).
 * After a session an administrator ended (API 401 SESSION_REVOKED) the form's header says so until the next
 * sign-in (`session-revoked.ts`, docs/portal.md#session-loss).
 * A signed-in account in no group gets the waiting page (`AwaitingAccessPage`) while the portal's guard signs
 * it out, and keeps it until the user goes back to the form (docs/portal.md#groups-and-tenants).
 */
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Authenticator } from '@aws-amplify/ui-react';
import { getCurrentUser } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import type { AuthenticatorProps } from '@aws-amplify/ui-react';
import type { PortalConfig } from '../shared/lib/config';
import { loadCognitoErrorTexts, localizeAriaLabels, PASSWORD_FIELD_LABELS } from '../shared/lib/i18n';
import { LoadingScreen } from '../shared/ui/LoadingScreen';
import { clearAwaitingAccess, useAwaitingAccess } from '../shared/lib/awaiting-access';
import { clearSessionRevoked, SESSION_REVOKED_EN, useSessionRevoked } from '../shared/lib/session-revoked';
import { AwaitingAccessPage } from './AwaitingAccessPage';
import { preloadableLazy } from './preloadable';
import { takeOverPrerender } from './prerender-takeover';
import { watchSignInTokens } from './sign-in-tokens';
import { clearPendingIdToken, opensPortalAtOnce, setPendingIdToken } from '../shared/lib/pending-sign-in';
import { firstScreenShown, resetFirstScreen } from '../shared/lib/first-screen';
import { onNextPaint } from '../shared/lib/hooks';
import type * as PrefetchModuleNs from './prefetch-signed-in';
import { I18n } from 'aws-amplify/utils';

// Preloadable: loaded during sign-in, it renders without a loading state (preloadable.tsx).
const SignedInApp = preloadableLazy(() => import('./SignedInApp').then((m) => m.default));
// Only stages with a customer identity provider load it (docs/portal.md#company-sign-in).
const CompanySignIn = lazy(() => import('./CompanySignIn'));

/** Amplify UI's names of the social providers in `config.json` (`Google` → `google`). */
const AUTHENTICATOR_SOCIAL = { Amazon: 'amazon', Apple: 'apple', Facebook: 'facebook', Google: 'google' } as const;

const LOGIN_PATH = '/page/login';
const REGISTER_PATH = '/page/register';

const passwordField = { ...PASSWORD_FIELD_LABELS };
// Amplify UI spreads each field's options into its `PasswordField` (ui `applyTranslation` keeps unknown
// keys), so these props reach the show-password switch; its public type doesn't list them.
const LOGIN_MECHANISMS: AuthenticatorProps['loginMechanisms'] = ['email'];

const formFields = {
  signIn: { password: passwordField },
  signUp: { password: passwordField, confirm_password: passwordField },
  forceNewPassword: { password: passwordField, confirm_password: passwordField },
  confirmResetPassword: { password: passwordField, confirm_password: passwordField },
} as unknown as AuthenticatorProps['formFields'];

/** The stored session's state: being checked, signed in or signed out (Amplify Auth's Hub events keep it current). */
type AuthStatus = 'configuring' | 'authenticated' | 'unauthenticated';

/**
 * The session state, as Amplify UI's `Authenticator.Provider` computes it (`getCurrentUser()` once, then the
 * Hub's `signedIn` / `signedOut` events), without the Provider's state machine: the form's own
 * `<Authenticator>` has one, and a second machine cost the sign-in page ~30 ms before its form
 * (docs/portal.md#bundles).
 */
function useAuthStatus(): AuthStatus {
  const [status, setStatus] = useState<AuthStatus>('configuring');
  useEffect(() => {
    let live = true;
    getCurrentUser().then(
      () => live && setStatus('authenticated'),
      () => live && setStatus('unauthenticated'),
    );
    const stop = Hub.listen('auth', ({ payload }) => {
      if (payload.event === 'signedIn') {
        clearSessionRevoked();
        // Amplify's session has the token now (pending-sign-in.ts).
        clearPendingIdToken();
        setStatus('authenticated');
      }
      if (payload.event === 'signedOut' || payload.event === 'tokenRefresh_failure') {
        clearPendingIdToken();
        setStatus('unauthenticated');
      }
      // A hosted-UI redirect that failed (logged by `logRedirectFailures`, docs/portal.md#company-sign-in).
      if (payload.event === 'signInWithRedirect_failure') setStatus('unauthenticated');
    });
    return () => {
      live = false;
      stop();
    };
  }, []);
  return status;
}

type PrefetchModule = typeof PrefetchModuleNs;
/** The prefetch chunk once loaded (`warmUpAfterForm` loads it while the form is shown), so a sign-in calls it in the same task. */
let prefetchModule: PrefetchModule | undefined;
const loadPrefetch = () => import('./prefetch-signed-in').then((m) => (prefetchModule = m));

/**
 * As soon as the user pool answers a sign-in with its tokens (`sign-in-tokens.ts`, before Amplify confirms the
 * device and fires `signedIn`), starts `/me` and `/summary` with that ID token and the signed-in portal's chunk
 * (`prefetchWithIdToken`); `prefetchAfterSignIn` hands the requests to SWR when `signedIn` follows for the same
 * user (docs/portal.md#sign-in-to-dashboard).
 *
 * On a sign-in (the Hub's `signedIn`: the tokens are stored), starts at once what the first screen needs, in
 * parallel: the signed-in portal's chunk and, from a small chunk of its own, the dashboard's chunk, `/me` and
 * `/summary` (`prefetch-signed-in.ts`), instead of one after the other as the portal renders
 * (docs/portal.md#sign-in-to-dashboard). A failed prefetch is ignored: the portal loads what it needs itself.
 */
function useStartPortalOnSignIn(apiUrl: string, onPortalOpens: () => void): void {
  useEffect(
    () =>
      watchSignInTokens((idToken) => {
        SignedInApp.preload().catch(() => undefined);
        // A sign-in that can only end signed in opens the portal now, on this token (pending-sign-in.ts).
        const portalOpens = opensPortalAtOnce(setPendingIdToken(idToken));
        if (!portalOpens) clearPendingIdToken();
        const started = prefetchModule
          ? prefetchModule.prefetchWithIdToken(apiUrl, idToken, { portalOpens })
          : loadPrefetch().then((m) => m.prefetchWithIdToken(apiUrl, idToken, { portalOpens }));
        if (!portalOpens) return undefined;
        resetFirstScreen();
        onPortalOpens();
        // Amplify's next step (the device verifier, ~120 ms of CPU) waits until the first screen's data is on the
        // screen (shared/lib/first-screen.ts) and painted; the requests failing to start releases it at once.
        return started.then(() => firstScreenShown().then(() => new Promise<void>((painted) => void onNextPaint(painted))), () => undefined);
      }),
    [apiUrl, onPortalOpens],
  );
  useEffect(
    () =>
      Hub.listen('auth', ({ payload }) => {
        if (payload.event !== 'signedIn') return;
        SignedInApp.preload().catch(() => undefined);
        loadPrefetch().then((m) => m.prefetchAfterSignIn(apiUrl)).catch(() => undefined);
      }),
    [apiUrl],
  );
}

/** Props: the validated `/config.json`. Must be rendered after `configureAmplify(config)`. */
export function AuthGate({ config }: { config: PortalConfig }) {
  const authStatus = useAuthStatus();
  // The portal opened on the user pool's answer, before the Authenticator's flow has ended (pending-sign-in.ts):
  // the form stays mounted, hidden, until that flow ends.
  const [openedEarly, setOpenedEarly] = useState(false);
  const openEarly = useCallback(() => {
    // The sign-in was made on this page's form: start at `/` (docs/portal.md#sign-in).
    window.history.replaceState(null, '', '/');
    setOpenedEarly(true);
  }, []);
  useStartPortalOnSignIn(config.apiUrl, openEarly);
  // One components object for the widget's life: a new one on each render of the gate (its session state
  // changes while the form appears) made Amplify UI render the whole form again (docs/portal.md#bundles).
  const enterprise = config.oauth?.enterprise === true;
  const components = useMemo(
    () => ({
      Header: () => <SignInBrand brandName={config.brandName} />,
      ...(enterprise
        ? {
            SignIn: {
              Header: () => (
                <Suspense fallback={null}>
                  <CompanySignIn />
                </Suspense>
              ),
            },
          }
        : {}),
    }),
    [config.brandName, enterprise],
  );
  const socialProviders = useMemo(() => (config.oauth?.socialProviders ?? []).map((p) => AUTHENTICATOR_SOCIAL[p]), [config.oauth]);
  // The sign-in form was shown on this page: the next `authenticated` is a sign-in (not a restored session).
  const [sawSignedOut, setSawSignedOut] = useState(false);
  if (authStatus === 'unauthenticated' && !sawSignedOut) setSawSignedOut(true);
  // The form's flow reached its end after a sign-in (the Authenticator rendered its signed-in content).
  const [flowDone, setFlowDone] = useState(false);
  if (authStatus === 'unauthenticated' && flowDone) setFlowDone(false);

  // A sign-out (or a lost session) before the hidden form's flow has ended closes the early portal too.
  useEffect(() => Hub.listen('auth', ({ payload }) => payload.event === 'signedOut' && setOpenedEarly(false)), []);

  // The form's flow end, read by a callback that stays the same for the form's life (see `form` below).
  const flow = useRef({ sawSignedOut, openedEarly });
  useLayoutEffect(() => {
    flow.current = { sawSignedOut, openedEarly };
  });
  const onFlowDone = useCallback(() => {
    // Coming from the sign-in form → start at `/` (docs/portal.md#sign-in), unless the portal opened there
    // already (the user may have moved on); a restored session keeps its address.
    if (flow.current.sawSignedOut) {
      if (!flow.current.openedEarly) window.history.replaceState(null, '', '/');
      setSawSignedOut(false);
    }
    setOpenedEarly(false);
    setFlowDone(true);
  }, []);
  const wantsRegister = window.location.pathname === REGISTER_PATH && config.allowSignUp;
  // One element for as long as its inputs stay: opening the portal early re-renders the gate, and a new element
  // made Amplify UI render the whole (now hidden) form again in the same pass as the portal's first render,
  // 11–44 ms on the way to the dashboard's figures (docs/portal.md#sign-in-to-dashboard).
  const form = useMemo(
    () => (
      <Authenticator
        loginMechanisms={LOGIN_MECHANISMS}
        hideSignUp={!config.allowSignUp}
        initialState={wantsRegister ? 'signUp' : 'signIn'}
        formFields={formFields}
        components={components}
        {...(socialProviders.length > 0 ? { socialProviders } : {})}
      >
        {() => <FlowDone onDone={onFlowDone} />}
      </Authenticator>
    ),
    [config.allowSignUp, wantsRegister, components, socialProviders, onFlowDone],
  );

  const awaiting = useAwaitingAccess();
  const showsPortal = (authStatus === 'authenticated' && (!sawSignedOut || flowDone)) || openedEarly;
  // Any first screen but the sign-in form replaces the prerendered form (the form's own header takes it over).
  useLayoutEffect(() => {
    if (awaiting || showsPortal) takeOverPrerender(null);
  }, [awaiting, showsPortal]);
  if (awaiting) {
    return (
      <AwaitingAccessPage
        brandName={config.brandName}
        email={awaiting.email}
        signedOut={authStatus === 'unauthenticated'}
        onLeave={() => {
          window.history.replaceState(null, '', LOGIN_PATH);
          clearAwaitingAccess();
        }}
      />
    );
  }

  // Amplify reports `authenticated` as soon as the tokens are stored, before the Authenticator's own flow has
  // ended: after a sign-in on this page its contact check may still show Verify Contact / Confirm Verify
  // (an unverified e-mail; docs/portal.md#sign-in). The form stays until the flow reaches its end.
  const portal = showsPortal ? (
    <Suspense key="portal" fallback={<LoadingScreen />}>
      <SignedInApp config={config} />
    </Suspense>
  ) : null;
  const formFlowEnded = authStatus === 'authenticated' && (!sawSignedOut || flowDone);
  if (formFlowEnded) return <>{portal}</>;

  // Signed out, being checked, or signing in. The Authenticator is mounted afresh for each signed-out period, so
  // it opens on "Iniciar sesión" after a sign-out (on "Crear cuenta" only at /page/register). While the session
  // is checked it runs its own check at the same time and shows nothing until that ends (docs/portal.md#bundles).
  if (authStatus === 'unauthenticated' && !openedEarly) {
    const path = wantsRegister ? REGISTER_PATH : LOGIN_PATH;
    if (window.location.pathname !== path) window.history.replaceState(null, '', path);
  }
  // The form and the portal are keyed siblings, so opening the portal early keeps the form's flow running (hidden).
  return (
    <>
      <SignInPage key="signin" hidden={openedEarly}>
        {form}
      </SignInPage>
      {portal}
    </>
  );
}

/** Rendered by the Authenticator when its flow has ended (signed in): tells the gate, shows nothing. */
function FlowDone({ onDone }: { onDone: () => void }) {
  useEffect(() => onDone(), [onDone]);
  return null;
}

let warmedUp = false;
/**
 * Once per page, when the sign-in form is on the screen (its header mounted) and the browser is idle: adds the
 * texts of identity-service errors to the widget's dictionary (an error can only come back from a request to
 * the user pool) and loads the signed-in portal's chunk, the dashboard's (where a sign-in lands) and the
 * sign-in prefetch (so the user pool's answer starts `/me` and `/summary` in the same task), so the
 * sign-in does not wait for ~400 KB of JavaScript; the same `import()` targets as `SignedInApp` and the route
 * table, so the browser reuses them. Then, idle again, it builds the dashboard's number and date formatters
 * (`warmFormatters`: a locale's first one costs 20–45 ms of CPU, which the figures' render paid). Nothing of it runs before the form: idle time while the widget is still
 * checking the session would delay the form (docs/portal.md#bundles). A failed prefetch is ignored: the route
 * loads the chunk again when needed.
 */
function warmUpAfterForm(): void {
  if (warmedUp) return;
  warmedUp = true;
  const idle = (run: () => void) => (typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(run, { timeout: 3000 }) : window.setTimeout(run, 1000));
  const load = () => {
    void loadCognitoErrorTexts();
    // The formatters in the messages language the signed-in chunk sets when it loads (format.ts `warmFormatters`).
    SignedInApp.preload()
      .then(() => import('../shared/lib/format'))
      .then((m) => idle(m.warmFormatters))
      .catch(() => undefined);
    void import('../features/dashboard/DashboardPage').catch(() => undefined);
    loadPrefetch().catch(() => undefined);
  };
  idle(load);
}

/**
 * The sign-in page's container; keeps Amplify's untranslated screen-reader texts in Spanish. `hidden`: the
 * portal opened before the form's flow ended, which goes on out of sight.
 */
function SignInPage({ children, hidden = false }: { children: ReactNode; hidden?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => (ref.current ? localizeAriaLabels(ref.current) : undefined), []);
  return (
    <div className="signin-page" ref={ref} style={hidden ? { display: 'none' } : undefined} aria-hidden={hidden || undefined}>
      {children}
    </div>
  );
}

function SignInBrand({ brandName }: { brandName: string }) {
  useEffect(warmUpAfterForm, []);
  // The form is mounted with its header: it takes over the prerendered form before the next paint.
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => takeOverPrerender(ref.current?.closest<HTMLElement>('[data-amplify-authenticator]') ?? null), []);
  const revoked = useSessionRevoked();
  return (
    <header className="signin-brand" ref={ref}>
      <h1>
        {brandName} <span className="brand-tag">{I18n.get('CUSTOMER')}</span>
      </h1>
      <p>{I18n.get('Customer portal')}</p>
      {/* The last session was ended by an administrator (docs/portal.md#session-loss). */}
      {revoked && (
        <p role="alert" className="signin-notice" data-testid="session-revoked">
          {I18n.get(SESSION_REVOKED_EN)}
        </p>
      )}
    </header>
  );
}
