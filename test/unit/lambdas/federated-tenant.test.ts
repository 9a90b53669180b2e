/**
 * Federated users land in their provider's tenant (docs/platform.md#federated-sign-in): the pre token
 * generation trigger puts a user of an enterprise provider in the provider's tenant group, overrides the
 * token's groups with exactly that tenant (never admin), and does not record such a sign-in as an access request.
 */
import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { federatedProviderOf, federatedTenantOf, parseFederatedTenants } from '../../../lambdas/triggers/federation.js';
import { createPreTokenGenerationHandler, type TriggerFederation } from '../../../lambdas/triggers/pre-token-generation.js';

const TENANTS = { AcmeEntra: 'acme', GlobexSaml: 'globex' };

/** A sign-in event of `userName` with `attributes` and `groups`. */
function signIn(userName: string, attributes: Record<string, string>, groups: string[] = []): PreTokenGenerationTriggerEvent {
  return {
    version: '1',
    triggerSource: 'TokenGeneration_HostedAuth',
    region: 'eu-west-1',
    userPoolId: 'eu-west-1_abc',
    userName,
    callerContext: { awsSdkVersion: '3', clientId: 'client' },
    request: { userAttributes: { sub: 'sub-1', email: 'carla@acme.example', ...attributes }, groupConfiguration: { groupsToOverride: groups, iamRolesToOverride: [], preferredRole: undefined } },
    response: { claimsOverrideDetails: null },
  } as unknown as PreTokenGenerationTriggerEvent;
}
const identities = (providerName: string, providerType = 'OIDC') => JSON.stringify([{ userId: 'abc', providerName, providerType, issuer: null, primary: 'true', dateCreated: '1' }]);

function harness(federation: Partial<TriggerFederation> = {}) {
  const added: string[] = [];
  const audited: unknown[] = [];
  const logged: string[] = [];
  const fed: TriggerFederation = { tenants: TENANTS, addUserToGroup: async (pool, user, group) => void added.push(`${pool}/${user}/${group}`), ...federation };
  const h = createPreTokenGenerationHandler(async () => [], (m) => logged.push(m), async (e) => void audited.push(e), fed);
  return { h, added, audited, logged };
}

describe('which provider and tenant a user came through', () => {
  it('reads the identities attribute first, then the <provider>_ user name prefix of a configured provider', () => {
    expect(federatedProviderOf('x', { identities: identities('AcmeEntra') }, [])).toBe('AcmeEntra');
    expect(federatedProviderOf('AcmeEntra_abc', {}, ['AcmeEntra'])).toBe('AcmeEntra');
    expect(federatedProviderOf('AcmeEntra_abc', {}, [])).toBeNull();
    // A native user of this pool is named by a UUID.
    expect(federatedProviderOf('6f1c2a9e-1111-4222-8333-944445555666', { email: 'ana@acme.example' }, ['AcmeEntra'])).toBeNull();
    expect(federatedProviderOf('Google_123', { identities: identities('Google', 'Google') }, ['AcmeEntra'])).toBe('Google');
    expect(federatedProviderOf('AcmeEntra_1', { identities: 'not json' }, ['AcmeEntra'])).toBe('AcmeEntra');
  });
  it('a social provider (not in the map) has no tenant; a configured one has its own', () => {
    expect(federatedTenantOf('Google_1', { identities: identities('Google', 'Google') }, TENANTS)).toBeNull();
    expect(federatedTenantOf('GlobexSaml_1', { identities: identities('GlobexSaml', 'SAML') }, TENANTS)).toBe('globex');
    expect(federatedTenantOf('x', { identities: identities('toString') }, TENANTS)).toBeNull();
  });
  it('FEDERATED_TENANTS: absent = none; admin is never a tenant; malformed JSON is loud', () => {
    expect(parseFederatedTenants(undefined)).toEqual({});
    expect(parseFederatedTenants('{"AcmeEntra":"acme","Evil":"admin","Bad":3}')).toEqual({ AcmeEntra: 'acme' });
    expect(() => parseFederatedTenants('{')).toThrow(SyntaxError);
    expect(() => parseFederatedTenants('["acme"]')).toThrow(/JSON object/);
  });
});

describe('pre token generation trigger with enterprise providers', () => {
  it('first sign-in: adds the user to the tenant group and the token carries exactly that tenant; no access request', async () => {
    const { h, added, audited } = harness();
    const out = await h(signIn('AcmeEntra_abc', { identities: identities('AcmeEntra') }), { awsRequestId: 'r1' });
    expect(added).toEqual(['eu-west-1_abc/AcmeEntra_abc/acme']);
    expect(out.response.claimsOverrideDetails?.groupOverrideDetails?.groupsToOverride).toEqual(['acme']);
    expect(audited).toEqual([]);
  });
  it('a member already: no Cognito call; other groups (admin, another tenant) are dropped from the token', async () => {
    const { h, added } = harness();
    const out = await h(signIn('AcmeEntra_abc', { identities: identities('AcmeEntra') }, ['acme', 'admin', 'globex']));
    expect(added).toEqual([]);
    expect(out.response.claimsOverrideDetails?.groupOverrideDetails?.groupsToOverride).toEqual(['acme']);
  });
  it('a failing AdminAddUserToGroup is logged; the token still carries the tenant', async () => {
    const { h, logged } = harness({ addUserToGroup: async () => { throw new Error('throttled'); } });
    const out = await h(signIn('AcmeEntra_abc', { identities: identities('AcmeEntra') }));
    expect(out.response.claimsOverrideDetails?.groupOverrideDetails?.groupsToOverride).toEqual(['acme']);
    expect(logged).toHaveLength(1);
  });
  it('social and native users are untouched: no group change, and a sign-in in no group is an access request', async () => {
    const { h, added, audited } = harness();
    const social = await h(signIn('Google_1', { identities: identities('Google', 'Google'), email_verified: 'true' }));
    expect(social.response.claimsOverrideDetails).toBeNull();
    const native = await h(signIn('6f1c2a9e-1111-4222-8333-944445555666', {}, ['globex']));
    expect(native.response.claimsOverrideDetails).toBeNull();
    expect(added).toEqual([]);
    expect(audited).toHaveLength(1);
  });
  it('without federation settings a federated-looking user name changes nothing', async () => {
    const h = createPreTokenGenerationHandler(async () => []);
    expect((await h(signIn('AcmeEntra_abc', {}))).response.claimsOverrideDetails).toBeNull();
  });
});
