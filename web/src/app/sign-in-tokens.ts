/**
 * The ID token of a sign-in as soon as the user pool has answered with it (docs/portal.md#sign-in-to-dashboard).
 *
 * Amplify (6.x, `signInWithSRP`) receives the tokens in `RespondToAuthChallenge`'s answer, then computes a
 * device verifier (~120 ms of CPU) and calls `ConfirmDevice` (device tracking), and only then stores the
 * tokens and fires the Hub's `signedIn`; the Authenticator then reads the user (`GetUser`) before its flow ends.
 * The portal's first requests (`/me`, `/summary`) need nothing of that: they need the ID token. This module
 * hands it over from the answer itself, so those requests overlap the rest of the sign-in
 * (`prefetch-signed-in.ts`, `prefetchWithIdToken`).
 *
 * How: `window.fetch` is wrapped once per page. A request whose `X-Amz-Target` is
 * `AWSCognitoIdentityProviderService.RespondToAuthChallenge` (the last step of an SRP sign-in, with or without
 * TOTP, and of a new-password challenge) and whose answer is 2xx is read first by the wrapper: `AuthenticationResult.IdToken`, when present (not for an
 * intermediate challenge such as `SOFTWARE_TOKEN_MFA`), goes to the listener, and then Amplify gets a response
 * with the same status, headers and body text — so the listener's requests leave before Amplify's next step,
 * the device verifier's ~120 ms of synchronous CPU (measured with `VIGIA_BENCH_TRACE=1`: 150–170 ms between the
 * answer and `/me` when the listener read a clone after Amplify). Every other request is passed through
 * untouched (the same promise). Nothing is stored: the token stays in the caller's memory, the API still
 * verifies it (API Gateway's user-pool authorizer), and device tracking, the token store and the Hub events are
 * Amplify's as before. Federated sign-in (hosted UI, OAuth token endpoint) does not use this path.
 * A listener may hold Amplify's copy of the answer back for up to {@link HOLD_CAP_MS} (see {@link IdTokenListener}).
 */

/** The `X-Amz-Target` of the user pool's answer to a sign-in challenge. */
export const RESPOND_TO_AUTH_CHALLENGE = 'AWSCognitoIdentityProviderService.RespondToAuthChallenge';

/**
 * Receives the ID token (a JWT string) of a sign-in the user pool has just answered. It may return a promise:
 * Amplify then gets the answer only once that settles, or after {@link HOLD_CAP_MS} at most — so the portal the
 * gate opened on the token paints its first screen before Amplify's next step (the device verifier's CPU) runs.
 */
export type IdTokenListener = (idToken: string) => void | Promise<unknown>;

/** The longest a listener's promise holds back Amplify's copy of the answer, ms. */
export const HOLD_CAP_MS = 2000;

let listener: IdTokenListener | null = null;
/** The windows whose `fetch` is wrapped already (once each: a page has one; tests pass their own). */
const installed = new WeakSet<Window>();

/** Whether `init` is a user-pool `RespondToAuthChallenge` request (Amplify passes its headers as an object). */
export function isRespondToAuthChallenge(init: RequestInit | undefined): boolean {
  if (!init?.headers || (init.method ?? 'GET').toUpperCase() !== 'POST') return false;
  try {
    return new Headers(init.headers).get('x-amz-target') === RESPOND_TO_AUTH_CHALLENGE;
  } catch {
    return false;
  }
}

/** `AuthenticationResult.IdToken` of a user-pool answer body, or null. */
export function idTokenOf(body: unknown): string | null {
  const result = (body as { AuthenticationResult?: { IdToken?: unknown } } | null)?.AuthenticationResult;
  return typeof result?.IdToken === 'string' && result.IdToken ? result.IdToken : null;
}

/**
 * Calls `onIdToken` with the ID token of each sign-in answered from now on, until the returned function is
 * called (one listener at a time: a new call replaces the previous one). Installs the `fetch` wrapper on
 * `win` the first time. A listener that throws is ignored (the sign-in goes on).
 */
export function watchSignInTokens(onIdToken: IdTokenListener, win: Window = window): () => void {
  listener = onIdToken;
  if (!installed.has(win)) {
    installed.add(win);
    const original = win.fetch.bind(win);
    win.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const answer = original(input, init);
      if (!listener || !isRespondToAuthChallenge(init)) return answer;
      return answer.then(async (response) => {
        const l = listener;
        if (!response.ok || !l) return response;
        // The body is read here, the token handed over, and only then does Amplify get the answer: its next step
        // (the device verifier, ~120 ms of synchronous CPU) would otherwise run first and hold back `/me` and `/summary`.
        const text = await response.text();
        let hold: void | Promise<unknown> = undefined;
        try {
          const token = idTokenOf(JSON.parse(text));
          if (token) hold = l(token);
        } catch {
          // Not JSON, or the listener threw: the sign-in goes on.
        }
        if (hold) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([hold.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, HOLD_CAP_MS)))]);
          clearTimeout(timer);
        }
        return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
      });
    };
  }
  return () => {
    if (listener === onIdToken) listener = null;
  };
}
