/**
 * The sign-in's ID token from the user pool's answer (`sign-in-tokens.ts`): only a 2xx RespondToAuthChallenge
 * answer carrying `AuthenticationResult.IdToken` reaches the listener, before Amplify gets the answer; Amplify still
 * reads the same status and body; every other request is passed through as it was; a listener's promise holds
 * Amplify's copy back until it settles, at most `HOLD_CAP_MS`.
 */
import { describe, expect, it, vi } from 'vitest';
import { HOLD_CAP_MS, idTokenOf, isRespondToAuthChallenge, RESPOND_TO_AUTH_CHALLENGE, watchSignInTokens } from './sign-in-tokens';

const target = (op: string) => ({ method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${op}` } });
// Give a (wrong) late reader time before asserting nothing more was seen.
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('sign-in tokens', () => {
  it('recognises the challenge answer request and reads its ID token', () => {
    expect(isRespondToAuthChallenge(target('RespondToAuthChallenge'))).toBe(true);
    expect(isRespondToAuthChallenge({ ...target('RespondToAuthChallenge'), headers: new Headers(target('RespondToAuthChallenge').headers) })).toBe(true);
    expect(isRespondToAuthChallenge(target('InitiateAuth'))).toBe(false);
    expect(isRespondToAuthChallenge(target('ConfirmDevice'))).toBe(false);
    expect(isRespondToAuthChallenge({ headers: { 'x-amz-target': RESPOND_TO_AUTH_CHALLENGE } })).toBe(false); // a GET
    expect(isRespondToAuthChallenge(undefined)).toBe(false);
    expect(idTokenOf({ AuthenticationResult: { IdToken: 'jwt', AccessToken: 'a' } })).toBe('jwt');
    expect(idTokenOf({ ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 's' })).toBeNull();
    expect(idTokenOf(null)).toBeNull();
  });

  it('hands the ID token of a 2xx challenge answer to the listener, leaves the answer intact and other requests alone', async () => {
    const answers: Record<string, () => Response> = {
      RespondToAuthChallenge: () => new Response(JSON.stringify({ AuthenticationResult: { IdToken: 'id.jwt.sig' } }), { status: 200 }),
      MfaChallenge: () => new Response(JSON.stringify({ ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 's' }), { status: 200 }),
      Refused: () => new Response(JSON.stringify({ __type: 'NotAuthorizedException', AuthenticationResult: { IdToken: 'no' } }), { status: 400 }),
    };
    let next = 'RespondToAuthChallenge';
    const other = Promise.resolve(new Response('{}'));
    const original = vi.fn((_input: RequestInfo | URL, init?: RequestInit) => (isRespondToAuthChallenge(init) ? Promise.resolve(answers[next]!()) : other));
    const win = { fetch: original } as unknown as Window;
    const seen: string[] = [];
    const stop = watchSignInTokens((t) => {
      seen.push(t);
    }, win);

    // Any other request: the very same promise, nothing read.
    expect(win.fetch('https://api.test/me', { headers: { Authorization: 'x' } })).toBe(other);
    expect(win.fetch('https://pool.test/', target('ConfirmDevice'))).toBe(other);

    const response = await win.fetch('https://pool.test/', target('RespondToAuthChallenge'));
    // The listener has the token before Amplify has the answer (its next step blocks the thread for ~120 ms).
    expect(seen).toEqual(['id.jwt.sig']);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ AuthenticationResult: { IdToken: 'id.jwt.sig' } });

    for (next of ['MfaChallenge', 'Refused']) await (await win.fetch('https://pool.test/', target('RespondToAuthChallenge'))).text();
    await settle();
    expect(seen).toEqual(['id.jwt.sig']);

    // Once stopped, nothing is read and nothing reported.
    stop();
    next = 'RespondToAuthChallenge';
    await win.fetch('https://pool.test/', target('RespondToAuthChallenge'));
    await settle();
    expect(seen).toEqual(['id.jwt.sig']);
    expect(original).toHaveBeenCalledTimes(6);
  });

  it("holds Amplify's copy of the answer until the listener's promise settles, and no longer than the cap", async () => {
    const answer = () => Promise.resolve(new Response(JSON.stringify({ AuthenticationResult: { IdToken: 'id.jwt.sig' } }), { status: 200 }));
    const win = { fetch: vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => answer()) } as unknown as Window;
    let release = () => {};
    const stop = watchSignInTokens(() => new Promise<void>((r) => (release = r)), win);
    let answered = false;
    const got = win.fetch('https://pool.test/', target('RespondToAuthChallenge')).then((r) => {
      answered = true;
      return r;
    });
    await settle();
    expect(answered).toBe(false);
    release();
    expect((await got).status).toBe(200);

    // A promise that never settles: Amplify gets the answer after HOLD_CAP_MS.
    vi.useFakeTimers();
    try {
      watchSignInTokens(() => new Promise(() => undefined), win);
      answered = false;
      const late = win.fetch('https://pool.test/', target('RespondToAuthChallenge')).then(() => (answered = true));
      await vi.advanceTimersByTimeAsync(HOLD_CAP_MS - 10);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      await late;
      expect(answered).toBe(true);
    } finally {
      vi.useRealTimers();
      stop();
    }
  });
});
