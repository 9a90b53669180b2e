/**
 * The local user pool's hosted OAuth endpoints and the local identity provider (docs/local-emulation.md#federated-sign-in),
 * driven over HTTP(S) without a browser: authorization code + PKCE through `idp_identifier` routing, the provider's
 * login page (oidc-provider), the pool's `/oauth2/idpresponse`, `/oauth2/token` and `/logout`; the first sign-in
 * creates the federated user, with exactly the attributes the provider's attribute mapping gives (the e-mail, no
 * `email_verified`), whom the pre token generation trigger puts in the provider's tenant. Refusals: an
 * unregistered redirect URI (error page, no redirect), no PKCE, an unknown e-mail domain, a tampered or replayed
 * `state`, a wrong verifier, a replayed code, an unregistered sign-out URL. Without `federation` the stack has no
 * OAuth surface (config.json without `oauth`).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListUsersCommand } from '@aws-sdk/client-cognito-identity-provider';
import { startLocalStack, type RunningLocalStack } from '../../scripts/local/stack.js';
import { operatorClient } from '../support/conformance-target.js';
import { authorizeRequest, browser as newBrowser, signInAtProvider, startFederationStack, type Browser, type FederationStack } from '../support/federation.js';

let fed: FederationStack;
let stack: RunningLocalStack;

beforeAll(async () => {
  fed = await startFederationStack('vigia-federation-');
  stack = fed.stack;
}, 120_000);
afterAll(async () => {
  await fed?.stop();
});

const browser = (): Browser => newBrowser(fed.ca);
const oauth = () => stack.config.oauth!;
const hosted = () => `https://${oauth().domain}`;

/** The client side of a sign-in: PKCE pair and the authorize URL (`idp_identifier` routing unless `params` say otherwise). */
const clientRequest = (params: Record<string, string> = {}) => authorizeRequest(stack, { idp_identifier: 'acme.example', login_hint: 'carla@acme.example', ...params });

/** authorize → identity provider → its login page → signed in there; returns the provider's answer to the pool (its redirect). */
async function throughProvider(b: Browser, authorizeUrl: string): Promise<URL> {
  const r = await b.request(authorizeUrl);
  expect(r.status).toBe(302);
  expect(r.location!.origin).toBe(stack.federatedUsers[0]!.idp);
  const { page, idpresponse } = await signInAtProvider(b, r.location!, { email: 'carla@acme.example', password: stack.federatedUsers[0]!.password });
  expect(page).toContain('Acme Logística');
  expect(idpresponse?.toString()).toMatch(/^https:\/\/.*\/oauth2\/idpresponse\?code=/);
  return idpresponse!;
}

const token = (b: Browser, form: Record<string, string>) => b.request(`${hosted()}/oauth2/token`, { form });

describe('local federated sign-in', () => {
  it('carla: code + PKCE through her company provider; tokens of tenant acme; the code is single use; the hosted session and /logout', async () => {
    const b = browser();
    const client = clientRequest();
    const back = await b.request(await throughProvider(b, client.url));
    expect(back.status).toBe(302);
    expect(back.location!.origin + back.location!.pathname).toBe(oauth().redirectSignIn);
    expect(back.location!.searchParams.get('state')).toBe('client-state');
    const code = back.location!.searchParams.get('code')!;
    const form = { grant_type: 'authorization_code', client_id: stack.config.userPoolClientId, redirect_uri: oauth().redirectSignIn, code, code_verifier: client.verifier };

    // The code is redeemed once; its replay is invalid_grant.
    const first = await token(b, form);
    expect(first.status).toBe(200);
    const tokens = JSON.parse(first.body) as { id_token: string; access_token: string; refresh_token: string; token_type: string };
    expect(tokens.token_type).toBe('Bearer');
    const id = decodeJwt(tokens.id_token);
    expect(id['cognito:groups']).toEqual(['acme']);
    expect(id.email).toBe('carla@acme.example');
    expect(id.aud).toBe(stack.config.userPoolClientId);
    const replay = await token(b, form);
    expect([replay.status, JSON.parse(replay.body)]).toEqual([400, { error: 'invalid_grant' }]);

    // The API takes her ID token: tenant acme only.
    const me = await fetch(`${stack.urls.api}/me`, { headers: { authorization: tokens.id_token } });
    expect(((await me.json()) as { tenants: Array<{ id: string }> }).tenants.map((t) => t.id)).toEqual(['acme']);

    // A second sign-in reuses the same user (no duplicate), still in acme.
    const again = clientRequest({ state: 'second' });
    const back2 = await b.request(await throughProvider(browser(), again.url));
    const second = JSON.parse((await token(b, { ...form, code: back2.location!.searchParams.get('code')!, code_verifier: again.verifier })).body) as { id_token: string };
    expect(decodeJwt(second.id_token).sub).toBe(id.sub);

    // The hosted session: authorize without a provider signs in silently, until /logout.
    const silent = clientRequest({ idp_identifier: '', login_hint: '' });
    const withSession = await b.request(silent.url.replace('&idp_identifier=&login_hint=', ''));
    expect(withSession.location!.searchParams.get('code')).toBeTruthy();
    const bad = await b.request(`${hosted()}/logout?client_id=${stack.config.userPoolClientId}&logout_uri=${encodeURIComponent('https://evil.example/')}`);
    expect(bad.status).toBe(400);
    const out = await b.request(`${hosted()}/logout?client_id=${stack.config.userPoolClientId}&logout_uri=${encodeURIComponent(oauth().redirectSignOut)}`);
    expect([out.status, out.location!.toString()]).toEqual([302, oauth().redirectSignOut]);
    const noSession = await b.request(silent.url.replace('&idp_identifier=&login_hint=', ''));
    expect(noSession.location!.searchParams.get('error')).toBe('invalid_request');
  });

  it('carla has exactly what the attribute mapping gives: email (and identities, Cognito\'s), no email_verified', async () => {
    // The provider's ID token carries email_verified: true, but the deployed providers map only `email`
    // (OIDC_ATTRIBUTE_MAPPING, infra/user-pool-attributes.ts): Cognito writes mapped attributes only (developer
    // guide, "Specifying identity provider attribute mappings for your user pool"). Runs after carla's first sign-in.
    const admin = operatorClient(stack.urls.cognito, stack.config.region);
    try {
      const users = (await admin.send(new ListUsersCommand({ UserPoolId: stack.config.userPoolId }))).Users ?? [];
      const carla = users.find((u) => (u.Attributes ?? []).some((a) => a.Name === 'identities' && a.Value?.includes('"AcmeIdP"')));
      expect(carla).toBeDefined();
      const attributes = Object.fromEntries((carla!.Attributes ?? []).map((a) => [a.Name, a.Value]));
      expect(Object.keys(attributes).sort()).toEqual(['email', 'identities', 'sub']);
      expect(attributes.email).toBe('carla@acme.example');
    } finally {
      admin.destroy();
    }
  });

  it('the state from the identity provider must be one the pool issued, once', async () => {
    const b = browser();
    const response = await throughProvider(b, clientRequest().url);
    const tampered = new URL(response);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`);
    const refused = await b.request(tampered);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('invalid_state');
    // The genuine state was not consumed by the forgery… but is by its first use.
    expect((await b.request(response)).status).toBe(302);
    const replayed = await b.request(response);
    expect([replayed.status, replayed.body.includes('invalid_state')]).toEqual([400, true]);
  });

  it('refuses an unregistered redirect URI (error page, no redirect), a request without PKCE, an unknown domain, a wrong verifier', async () => {
    const b = browser();
    const foreign = await b.request(clientRequest({ redirect_uri: 'https://evil.example/' }).url);
    expect([foreign.status, foreign.location]).toEqual([400, null]);
    const noPkce = await b.request(clientRequest({ code_challenge_method: 'plain' }).url);
    expect(noPkce.location!.searchParams.get('error')).toBe('invalid_request');
    const unknown = await b.request(clientRequest({ idp_identifier: 'globex.example' }).url);
    expect(unknown.location!.searchParams.get('error')).toBe('invalid_request');

    const client = clientRequest();
    const back = await b.request(await throughProvider(b, client.url));
    const wrong = await token(b, { grant_type: 'authorization_code', client_id: stack.config.userPoolClientId, redirect_uri: oauth().redirectSignIn, code: back.location!.searchParams.get('code')!, code_verifier: randomBytes(48).toString('base64url') });
    expect([wrong.status, JSON.parse(wrong.body)]).toEqual([400, { error: 'invalid_grant' }]);
    expect(JSON.parse((await token(b, { grant_type: 'password' })).body)).toEqual({ error: 'unsupported_grant_type' });
  });
});

describe('local stack without federation', () => {
  it('has no OAuth surface: config.json without oauth, no federated users', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vigia-nofed-'));
    const plain = await startLocalStack({ dataDir: dir, ports: { web: 0, api: 0, cognito: 0, cognitoInternal: 0, dynamodb: 0 }, persist: false, seed: false, serveWeb: false });
    try {
      expect(plain.config.oauth).toBeUndefined();
      expect(plain.federatedUsers).toEqual([]);
    } finally {
      await plain.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
