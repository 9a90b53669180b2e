/**
 * A tenant's enterprise identity provider configured by staff through the API (docs/api.md#tenant-identity-provider),
 * on the local stack with federation (`npm start`'s engines: dynoxide, the local user pool with its provider API and
 * hosted OAuth endpoints, the local Secrets Manager, the local OpenID provider): the REAL admin handler, in process,
 * wired as the local gateway wires it, every response checked against the OpenAPI document.
 *
 *  - customers get 403 on the three routes; bad input is 400 VALIDATION_FAILED naming the field, an unknown tenant
 *    404, a domain another provider routes 409 IDP_DOMAIN_IN_USE — and none of these leaves anything behind;
 *  - staff configure globex's provider (the local OpenID provider under the name `tenant-globex`): the Cognito
 *    provider exists with the domain as identifier, the app client lists it and kept every other setting, the
 *    secret is in Secrets Manager and in no response or audit entry (only `clientSecretSet`);
 *  - a user signing in through it (idp_identifier routing, the provider's login page, code + PKCE) gets tokens of
 *    tenant globex: the pre token generation trigger read the provider → tenant item from the table;
 *  - a change without the secret keeps it; the removal takes the provider off the app client, the pool and
 *    Secrets Manager, and the domain no longer routes; each change is audited.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Page, TenantIdentityProviderState } from '../../lambdas/contract/schemas.js';
import { cognitoIdentityProviders } from '../../lambdas/data/cognito-identity-providers.js';
import { cognitoUsers } from '../../lambdas/data/cognito-users.js';
import { dynamoRepository } from '../../lambdas/data/index.js';
import { identityProviderStore } from '../../lambdas/data/identity-providers.js';
import { secretsManager } from '../../lambdas/data/secrets.js';
import { createHandler } from '../../lambdas/handlers/admin.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { LOCAL_USER_POOL_CLIENT_ID } from '../../scripts/local/cognito/index.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../../scripts/local/config.js';
import type { RunningLocalStack } from '../../scripts/local/stack.js';
import type { CallerSpec } from '../support/events.js';
import { authorizeRequest, browser, signInAtProvider, startFederationStack, type FederationStack } from '../support/federation.js';
import { call, validatingHandler } from '../support/in-process-api.js';

let fed: FederationStack;
let stack: RunningLocalStack;
let h: ApiHandler;
let pool: ReturnType<typeof cognitoIdentityProviders>;
let secrets: ReturnType<typeof secretsManager>;

// ID tokens of the portal's app client (the handlers check `aud`).
const staff: CallerSpec = { sub: 'u-soc', email: 'soc@vigia.example', groups: ['admin'], aud: LOCAL_USER_POOL_CLIENT_ID };
const customer: CallerSpec = { sub: 'u-globex', email: 'bob@globex.example', groups: ['globex'], aud: LOCAL_USER_POOL_CLIENT_ID };
const DOMAIN = 'globex-sso.example';
const PATH = '/tenants/globex/identity-provider';

beforeAll(async () => {
  fed = await startFederationStack('vigia-idp-admin-');
  stack = fed.stack;
  const c = stack.lambdaConfig;
  const operator = { ...LOCAL_OPERATOR_CREDENTIAL };
  pool = cognitoIdentityProviders({ userPoolId: c.userPoolId!, clientId: stack.config.userPoolClientId, region: c.region, endpoint: c.cognitoEndpoint, credentials: operator });
  secrets = secretsManager({ region: c.region, endpoint: c.secretsManagerEndpoint, credentials: operator });
  // As the local gateway builds the admin handler (scripts/local/stack.ts).
  h = validatingHandler(
    createHandler(c, {
      repository: dynamoRepository(stack.repositoryTable, { retention: c.retention }),
      users: cognitoUsers({ userPoolId: c.userPoolId!, region: c.region, endpoint: c.cognitoEndpoint, credentials: operator }),
      identityProviders: { cognito: pool, secrets, store: identityProviderStore(stack.repositoryTable, c.retention) },
    }),
  );
}, 180_000);
afterAll(async () => {
  await fed?.stop();
});

const json = <T>(r: { body: string }): T => JSON.parse(r.body) as T;
const oidcBody = (extra: Record<string, unknown> = {}) => ({
  type: 'oidc',
  issuerUrl: stack.identityProvider!.issuer,
  clientId: stack.identityProvider!.clientId,
  clientSecret: stack.identityProvider!.clientSecret,
  emailDomains: [DOMAIN],
  ...extra,
});
const auditOf = async (action: string) =>
  json<Page<AuditEntry>>(await call(h, { method: 'GET', path: '/audit', query: { tenant: 'globex', action }, caller: staff })).items;

/** A sign-in through the provider routed from `domain`: the ID token, or the error the pool sent back to the portal. */
async function signInThrough(domain: string): Promise<{ idToken?: string; error?: string }> {
  const b = browser(fed.ca);
  const oauth = stack.config.oauth!;
  const client = authorizeRequest(stack, { state: 's', idp_identifier: domain });
  const r = await b.request(client.url);
  if (r.location?.searchParams.get('error')) return { error: r.location.searchParams.get('error')! };
  expect(r.location!.origin).toBe(new URL(stack.identityProvider!.issuer).origin);
  const { idpresponse } = await signInAtProvider(b, r.location!, { email: 'carla@acme.example', password: stack.federatedUsers[0]!.password });
  const back = await b.request(idpresponse!);
  const code = back.location!.searchParams.get('code')!;
  const t = await b.request(`https://${oauth.domain}/oauth2/token`, {
    form: { grant_type: 'authorization_code', client_id: stack.config.userPoolClientId, redirect_uri: oauth.redirectSignIn, code, code_verifier: client.verifier },
  });
  return { idToken: (JSON.parse(t.body) as { id_token: string }).id_token };
}

describe('tenant identity provider: refusals leave nothing behind', () => {
  it('customers get 403 FORBIDDEN on GET, PUT and DELETE', async () => {
    for (const [method, body] of [['GET'], ['PUT', oidcBody()], ['DELETE']] as const) {
      const r = await call(h, { method, path: PATH, ...(body ? { body } : {}), caller: customer });
      expect([r.statusCode, json<{ code: string }>(r).code]).toEqual([403, 'FORBIDDEN']);
    }
  });

  it('400 VALIDATION_FAILED naming the field: an http issuer that is not the local one, a bad domain, no secret the first time; 404 for an unknown tenant; 409 for a domain another provider routes', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [oidcBody({ issuerUrl: 'http://login.example.com/v2.0' }), 'body.issuerUrl'],
      [oidcBody({ emailDomains: ['not a domain'] }), 'body.emailDomains.0'],
      [oidcBody({ emailDomains: [] }), 'body.emailDomains'],
      [oidcBody({ scopes: ['email'] }), 'body.scopes'],
      [{ type: 'saml', metadataUrl: 'ftp://x.example/m.xml', emailDomains: [DOMAIN] }, 'body.metadataUrl'],
      [oidcBody({ clientSecret: undefined }), 'body.clientSecret'],
    ];
    for (const [body, field] of cases) {
      const r = await call(h, { method: 'PUT', path: PATH, body, caller: staff });
      const e = json<{ code: string; details: Array<{ path: string; message: string }> }>(r);
      expect([r.statusCode, e.code], JSON.stringify(e)).toEqual([400, 'VALIDATION_FAILED']);
      expect(e.details.map((d) => d.path)).toContain(field);
      expect(e.details.find((d) => d.path === field)!.message).toMatch(/[áéíóúñ]|Debe|Indica|Dominio|Hay|ámbitos/);
    }
    const unknown = await call(h, { method: 'PUT', path: '/tenants/nobody/identity-provider', body: oidcBody(), caller: staff });
    expect([unknown.statusCode, json<{ code: string }>(unknown).code]).toEqual([404, 'NOT_FOUND']);
    // acme.example routes to the stack's own provider (AcmeIdP).
    const taken = await call(h, { method: 'PUT', path: PATH, body: oidcBody({ emailDomains: [DOMAIN, 'acme.example'] }), caller: staff });
    expect([taken.statusCode, json<{ code: string; details: unknown }>(taken)]).toMatchObject([409, { code: 'IDP_DOMAIN_IN_USE', details: { fields: ['emailDomains'], domains: ['acme.example'] } }]);

    expect(await pool.describe('tenant-globex')).toBeNull();
    expect(await secrets.get('vigia/local/identity-providers/globex')).toBeNull();
    expect(await pool.clientProviders()).not.toContain('tenant-globex');
    expect(await auditOf('tenant.identity_provider_set')).toEqual([]);
  });
});

describe('tenant identity provider: configured by staff, used by a customer, removed', () => {
  it('PUT: the provider, the app client, the secret in Secrets Manager (never returned), the audit entry; a sign-in through it lands in globex', async () => {
    const before = await pool.clientProviders();
    const clientBefore = await describeClient();
    const r = await call(h, { method: 'PUT', path: PATH, body: oidcBody(), caller: staff });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.body).not.toContain(stack.identityProvider!.clientSecret);
    const state = json<TenantIdentityProviderState>(r);
    expect(state).toMatchObject({
      available: true,
      providerName: 'tenant-globex',
      enabledOnAppClient: true,
      redirectUrl: `https://${stack.config.oauth!.domain}/oauth2/idpresponse`,
      provider: { tenantId: 'globex', type: 'oidc', issuerUrl: stack.identityProvider!.issuer, clientId: stack.identityProvider!.clientId, scopes: ['openid', 'email', 'profile'], emailDomains: [DOMAIN], clientSecretSet: true },
    });
    expect(state.provider).not.toHaveProperty('clientSecret');
    expect(state.provider).not.toHaveProperty('secretName');

    // Cognito: the provider with the domain as identifier; the app client lists it and kept every other setting.
    expect(await pool.describe('tenant-globex')).toMatchObject({ type: 'OIDC', identifiers: [DOMAIN], details: { oidc_issuer: stack.identityProvider!.issuer, client_secret: stack.identityProvider!.clientSecret } });
    expect(await pool.clientProviders()).toEqual([...before, 'tenant-globex']);
    const clientAfter = await describeClient();
    for (const k of ['ExplicitAuthFlows', 'AllowedOAuthFlows', 'CallbackURLs', 'LogoutURLs', 'AllowedOAuthScopes', 'PreventUserExistenceErrors', 'EnableTokenRevocation', 'RefreshTokenValidity']) {
      expect(clientAfter[k], k).toEqual(clientBefore[k]);
    }
    expect(await secrets.get('vigia/local/identity-providers/globex')).toBe(stack.identityProvider!.clientSecret);

    const get = await call(h, { method: 'GET', path: PATH, caller: staff });
    expect(json<TenantIdentityProviderState>(get)).toEqual(state);
    expect(get.body).not.toContain(stack.identityProvider!.clientSecret);
    const [entry] = await auditOf('tenant.identity_provider_set');
    expect(entry).toMatchObject({ actor: { sub: 'u-soc' }, target: { type: 'identity_provider', id: 'tenant-globex' }, after: { type: 'oidc', emailDomains: [DOMAIN], clientSecretSet: true, clientSecretChanged: true } });
    expect(JSON.stringify(entry)).not.toContain(stack.identityProvider!.clientSecret);

    // The trigger maps a user of this provider to globex (the provider → tenant item), never acme or admin.
    const { idToken } = await signInThrough(DOMAIN);
    const claims = decodeJwt(idToken!);
    expect(claims['cognito:groups']).toEqual(['globex']);
    expect(claims.email).toBe('carla@acme.example');
  });

  it('a change without the secret keeps the stored one; the response still says only clientSecretSet', async () => {
    const r = await call(h, { method: 'PUT', path: PATH, body: oidcBody({ clientSecret: undefined, scopes: ['openid', 'email'], emailDomains: [DOMAIN, 'globex-2.example'] }), caller: staff });
    expect(r.statusCode, r.body).toBe(200);
    expect(json<TenantIdentityProviderState>(r).provider).toMatchObject({ scopes: ['openid', 'email'], emailDomains: [DOMAIN, 'globex-2.example'], clientSecretSet: true });
    expect(await pool.describe('tenant-globex')).toMatchObject({ identifiers: [DOMAIN, 'globex-2.example'], details: { client_secret: stack.identityProvider!.clientSecret, authorize_scopes: 'openid email' } });
    const [entry] = await auditOf('tenant.identity_provider_set');
    expect(entry!.before).toMatchObject({ emailDomains: [DOMAIN] });
    expect(entry!.after).not.toHaveProperty('clientSecretChanged');
    // The app client lists it once.
    expect((await pool.clientProviders()).filter((p) => p === 'tenant-globex')).toHaveLength(1);
  });

  it('DELETE: off the app client, out of the pool and Secrets Manager, audited; the domain no longer routes; a repeat is harmless', async () => {
    const r = await call(h, { method: 'DELETE', path: PATH, caller: staff });
    expect(r.statusCode, r.body).toBe(200);
    expect(json<TenantIdentityProviderState>(r)).toMatchObject({ provider: null, enabledOnAppClient: false });
    expect(await pool.clientProviders()).not.toContain('tenant-globex');
    expect(await pool.describe('tenant-globex')).toBeNull();
    expect(await secrets.get('vigia/local/identity-providers/globex')).toBeNull();
    expect(await auditOf('tenant.identity_provider_delete')).toHaveLength(1);
    expect(await signInThrough(DOMAIN)).toEqual({ error: 'invalid_request' });
    const again = await call(h, { method: 'DELETE', path: PATH, caller: staff });
    expect(again.statusCode).toBe(200);
    expect(await auditOf('tenant.identity_provider_delete')).toHaveLength(1);
    // The stack's own provider is untouched.
    expect(await pool.clientProviders()).toEqual(expect.arrayContaining(['COGNITO']));
  });
});

/** The portal app client as DescribeUserPoolClient answers (signed with the operator key). */
async function describeClient(): Promise<Record<string, unknown>> {
  const { CognitoIdentityProviderClient, DescribeUserPoolClientCommand } = await import('@aws-sdk/client-cognito-identity-provider');
  const client = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: stack.lambdaConfig.region, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } });
  try {
    const out = await client.send(new DescribeUserPoolClientCommand({ UserPoolId: stack.lambdaConfig.userPoolId!, ClientId: stack.config.userPoolClientId }));
    return out.UserPoolClient as Record<string, unknown>;
  } finally {
    client.destroy();
  }
}

describe('tenant identity provider: the providers file\u2019s provider', () => {
  it('GET names the provider that routes the tenant\u2019s domain in the user pool (acme: AcmeIdP from the stage\u2019s file), read-only; none for globex', async () => {
    const r = await call(h, { method: 'GET', path: '/tenants/acme/identity-provider', caller: staff });
    expect(r.statusCode, r.body).toBe(200);
    const state = json<{ provider: unknown; stageProvider: { name: string; type: string; emailDomains: string[] } | null }>(r);
    expect(state.provider).toBeNull();
    expect(state.stageProvider).toEqual({ name: 'AcmeIdP', type: 'oidc', emailDomains: ['acme.example'] });
    // What the card shows is what Cognito routes: GetIdentityProviderByIdentifier of each of its domains.
    for (const d of state.stageProvider!.emailDomains) expect(await pool.providerOfIdentifier(d)).toBe('AcmeIdP');
    const g = json<{ stageProvider: unknown }>(await call(h, { method: 'GET', path: PATH, caller: staff }));
    expect(g.stageProvider).toBeNull();
  });
});
