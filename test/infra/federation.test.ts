/**
 * Federated sign-in per stage (docs/platform.md#federated-sign-in): with no identity provider configured the
 * stage has no OAuth surface at all (no user pool domain, OAuth disabled on the app client, no provider, the
 * trigger without AdminAddUserToGroup, no dependency of Auth on Hosting); with providers, the domain, the
 * providers bound to tenants and routed by e-mail domain, the app client's code grant with the site as
 * callback, the trigger's extra permission, the CSP and config.json.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { type FederationFile, OAUTH_SCOPES, parseFederation } from '../../infra/federation-config.js';
import { PortalConfig } from '../../lambdas/contract/portal-config.js';
import { stageConfig, stageOverridesFromContext } from '../../infra/stage-config.js';
import { ofType, PROD_ENV, synth, synthPr42, synthProd, type Synthed, TEST_SES } from '../support/synth.js';

/** A federated stage's provider file: Google, Entra ID over OIDC for acme, a SAML IdP for globex. */
const PROVIDERS: Omit<FederationFile, 'adminConfiguredProviders' | 'staffEmailDomains'> = {
  social: [{ type: 'google', clientId: 'google-client-id.apps.googleusercontent.com', clientSecretName: 'vigia/prod/google' }],
  enterprise: [
    {
      type: 'oidc',
      name: 'AcmeEntra',
      tenant: 'acme',
      emailDomains: ['acme.example', 'acme-logistica.example'],
      issuerUrl: 'https://login.microsoftonline.com/00000000-0000-0000-0000-000000000001/v2.0',
      clientId: '11111111-2222-3333-4444-555555555555',
      clientSecretName: 'vigia/prod/acme-entra',
    },
    { type: 'saml', name: 'GlobexSaml', tenant: 'globex', emailDomains: ['globex.example'], metadataUrl: 'https://login.microsoftonline.com/x/federationmetadata/2007-06/federationmetadata.xml?appid=y' },
  ],
};
const providersJson = JSON.stringify(PROVIDERS);

const synthProdFederated = () => synth('prod', { env: PROD_ENV, alarmEmail: 'soc@example.com', overrides: { email: TEST_SES, identityProviders: providersJson } });
const synthPr42Federated = () => synth('pr-42', { overrides: { identityProviders: JSON.stringify({ ...PROVIDERS, domainPrefix: 'vigia-pr-42-x' }) } });

function oauthSurface(t: ReturnType<typeof synthPr42>['t']) {
  const client = ofType(t.auth, 'AWS::Cognito::UserPoolClient')[0]![1].Properties!;
  return {
    domains: ofType(t.auth, 'AWS::Cognito::UserPoolDomain').length,
    providers: ofType(t.auth, 'AWS::Cognito::UserPoolIdentityProvider').length,
    oauth: client.AllowedOAuthFlowsUserPoolClient,
    callbacks: client.CallbackURLs,
    flows: client.AllowedOAuthFlows,
  };
}

describe('federated sign-in: none configured (every stage by default)', () => {
  it.each([
    ['pr-42', synthPr42],
    ['prod', synthProd],
  ] as const)('%s: no user pool domain, no provider, OAuth disabled, no callback URL, no OAuth in config.json or the CSP', (_stage, get) => {
    const { t, stacks } = get();
    expect(oauthSurface(t)).toEqual({ domains: 0, providers: 0, oauth: false, callbacks: undefined, flows: undefined });
    expect(stacks.auth.oauthDomain).toBeUndefined();
    // Auth depends on Data only (not on Hosting: nothing of the site is needed).
    expect(stacks.auth.dependencies.map((s) => s.stackName)).toEqual([stacks.data.stackName]);
    const fn = ofType(t.auth, 'AWS::Lambda::Function')[0]![1].Properties!;
    expect(Object.keys((fn.Environment as { Variables: Record<string, unknown> }).Variables)).not.toContain('FEDERATED_TENANTS');
    expect(JSON.stringify(t.auth.toJSON())).not.toMatch(/AdminAddUserToGroup|amazoncognito\.com|secretsmanager/);
    expect(JSON.stringify(t.hosting.toJSON())).not.toContain('amazoncognito.com');
    expect(JSON.stringify(t.portal.toJSON())).not.toMatch(/amazoncognito\.com|"oauth"/);
  });

  it('the context value is optional, read by the CDK app as -c identityProviders=<file or JSON>, and parsed only when given', () => {
    expect(stageConfig('prod').federation).toBeUndefined();
    expect(stageOverridesFromContext(() => undefined)).not.toHaveProperty('identityProviders');
    expect(stageOverridesFromContext((k) => (k === 'identityProviders' ? providersJson : undefined)).identityProviders).toBe(providersJson);
    expect(stageConfig('prod', { identityProviders: providersJson }).federation?.domainPrefix).toBe('vigia-prod');
    const dir = mkdtempSync(path.join(tmpdir(), 'vigia-idps-'));
    const file = path.join(dir, 'prod.json');
    writeFileSync(file, JSON.stringify({ ...PROVIDERS, domainPrefix: 'vigia-prod-eu' }));
    const fromFile = stageConfig('prod', { identityProviders: file }).federation!;
    expect([fromFile.domainPrefix, fromFile.enterprise.map((e) => e.name)]).toEqual(['vigia-prod-eu', ['AcmeEntra', 'GlobexSaml']]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('federated sign-in: providers configured', () => {
  it('prod: a Cognito domain with the stage prefix and its output', () => {
    const { t, stacks } = synthProdFederated();
    t.auth.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
    t.auth.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'vigia-prod', UserPoolId: Match.anyValue() });
    expect(stacks.auth.oauthDomain).toBe('vigia-prod.auth.eu-west-1.amazoncognito.com');
    // The prefix is global per region: a stage may choose another one.
    expect(synthPr42Federated().t.auth.findResources('AWS::Cognito::UserPoolDomain')).toEqual({
      [Object.keys(synthPr42Federated().t.auth.findResources('AWS::Cognito::UserPoolDomain'))[0]!]: expect.objectContaining({ Properties: expect.objectContaining({ Domain: 'vigia-pr-42-x' }) }),
    });
  });

  it('app client: authorization code grant only, the site root as callback and sign-out URL, the portal scopes, COGNITO + every provider', () => {
    const { t, stacks } = synthProdFederated();
    const client = ofType(t.auth, 'AWS::Cognito::UserPoolClient')[0]![1].Properties!;
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect(client.AllowedOAuthFlows).toEqual(['code']);
    expect([...(client.AllowedOAuthScopes as string[])].sort()).toEqual(['aws.cognito.signin.user.admin', 'email', 'openid', 'profile']);
    expect(client.GenerateSecret).toBe(false);
    // Password sign-in keeps working: SRP and rotation as before.
    expect(client.ExplicitAuthFlows).toEqual(['ALLOW_USER_SRP_AUTH']);
    const callbacks = JSON.stringify(client.CallbackURLs);
    expect(callbacks).toMatch(/DistributionDomainName|Hosting/);
    expect(client.CallbackURLs).toHaveLength(1);
    expect(JSON.stringify(client.LogoutURLs)).toBe(callbacks);
    expect(callbacks).not.toContain('localhost');
    expect(JSON.stringify(client.SupportedIdentityProviders)).toMatch(/COGNITO/);
    expect(JSON.stringify(client.SupportedIdentityProviders)).toMatch(/Google.*AcmeEntra|AcmeEntra.*Google/s);
    // The site URL comes from the Hosting stack: Auth now depends on it.
    expect(stacks.auth.dependencies.map((s) => s.stackName).sort()).toEqual([stacks.data.stackName, stacks.hosting.stackName].sort());
  });

  it('dev: the local dev server origin is a callback URL too (npm run dev:web)', () => {
    const { t } = synth('dev', { overrides: { identityProviders: providersJson } });
    const client = ofType(t.auth, 'AWS::Cognito::UserPoolClient')[0]![1].Properties!;
    expect(client.CallbackURLs).toHaveLength(2);
    expect((client.CallbackURLs as unknown[])[1]).toBe('http://localhost:5173/');
  });

  it('providers: Google with its secret from Secrets Manager; OIDC and SAML each with their e-mail domains as identifiers and e-mail mapped', () => {
    const { t } = synthProdFederated();
    const idps = Object.fromEntries(ofType(t.auth, 'AWS::Cognito::UserPoolIdentityProvider').map(([, r]) => [r.Properties!.ProviderName as string, r.Properties!]));
    expect(Object.keys(idps).sort()).toEqual(['AcmeEntra', 'GlobexSaml', 'Google']);
    expect(idps.Google!.ProviderType).toBe('Google');
    expect(JSON.stringify(idps.Google!.ProviderDetails)).toContain('{{resolve:secretsmanager:vigia/prod/google:SecretString:::}}');
    expect(idps.AcmeEntra).toMatchObject({
      ProviderType: 'OIDC',
      IdpIdentifiers: ['acme.example', 'acme-logistica.example'],
      AttributeMapping: { email: 'email' },
      ProviderDetails: expect.objectContaining({
        oidc_issuer: PROVIDERS.enterprise[0]!.type === 'oidc' ? PROVIDERS.enterprise[0]!.issuerUrl : '',
        client_id: '11111111-2222-3333-4444-555555555555',
        client_secret: '{{resolve:secretsmanager:vigia/prod/acme-entra:SecretString:::}}',
        authorize_scopes: 'openid email profile',
      }),
    });
    expect(idps.GlobexSaml).toMatchObject({
      ProviderType: 'SAML',
      IdpIdentifiers: ['globex.example'],
      AttributeMapping: { email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress' },
      ProviderDetails: expect.objectContaining({ MetadataURL: expect.stringContaining('federationmetadata') }),
    });
    // No secret value is in the template: only dynamic references.
    expect(JSON.stringify(t.auth.toJSON())).not.toMatch(/client_secret":"(?!\{\{resolve)/);
  });

  it('trigger: FEDERATED_TENANTS maps each enterprise provider to its tenant; its role gains AdminAddUserToGroup on this pool only', () => {
    const { t } = synthProdFederated();
    const pool = ofType(t.auth, 'AWS::Cognito::UserPool')[0]!;
    const [, fn] = ofType(t.auth, 'AWS::Lambda::Function')[0]!;
    const vars = (fn.Properties!.Environment as { Variables: Record<string, string> }).Variables;
    expect(JSON.parse(vars.FEDERATED_TENANTS!)).toEqual({ AcmeEntra: 'acme', GlobexSaml: 'globex' });
    const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const statements = ofType(t.auth, 'AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties!.Roles).includes(roleId))
      .flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Array<{ Action: string | string[]; Resource: unknown }> }).Statement);
    const cognito = statements.filter((s) => JSON.stringify(s.Action).includes('cognito-idp'));
    expect(cognito.map((s) => s.Action).sort()).toEqual(['cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminGetUser']);
    for (const s of cognito) expect(s.Resource).toEqual({ 'Fn::GetAtt': [pool[0], 'Arn'] });
    for (const s of statements) {
      const actions = ([] as string[]).concat(s.Action);
      expect(actions.every((a) => ['cognito-idp:AdminGetUser', 'cognito-idp:AdminAddUserToGroup', 'dynamodb:PutItem'].includes(a) || a.startsWith('logs:') || a.startsWith('xray:')), JSON.stringify(actions)).toBe(true);
    }
  });

  it('the CSP of the site and of the deployed index.html allow the hosted domain (Amplify fetches /oauth2/token); config.json carries the OAuth settings without the customers', () => {
    const s = synthProdFederated();
    const csp = JSON.stringify(ofType(s.t.hosting, 'AWS::CloudFront::ResponseHeadersPolicy')[0]![1].Properties);
    expect(csp).toContain('https://vigia-prod.auth.eu-west-1.amazoncognito.com');
    const files = uploaded(s);
    expect(files['index.html']).toMatch(/connect-src 'self' [^"]*https:\/\/vigia-prod\.auth\.eu-west-1\.amazoncognito\.com/);
    const config = PortalConfig.parse(JSON.parse(files['config.json']!.replace(/<<marker:0xbaba:\d+>>/g, 'x')));
    expect(config.oauth).toMatchObject({
      domain: 'vigia-prod.auth.eu-west-1.amazoncognito.com',
      scopes: [...OAUTH_SCOPES],
      socialProviders: ['Google'],
      enterprise: true,
    });
    expect(config.oauth!.redirectSignIn).toMatch(/^https:\/\/x\/$/);
    expect(config.oauth!.redirectSignOut).toBe(config.oauth!.redirectSignIn);
    expect(files['config.json']).not.toMatch(/acme|globex|AcmeEntra|GlobexSaml/i);
    // Without providers: no oauth key at all.
    expect(JSON.parse(uploaded(synthProd())['config.json']!)).not.toHaveProperty('oauth');
  });
});

/** The files the site deployment uploads from `Source.data`/`Source.jsonData` (index.html, config.json), with their deploy-time markers. */
function uploaded(s: Synthed): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, d] of ofType(s.t.portal, 'Custom::CDKBucketDeployment')) {
    for (const k of d.Properties!.SourceObjectKeys as string[]) {
      for (const name of ['index.html', 'config.json']) {
        const f = path.join(s.assembly.directory, `asset.${k.replace(/\.zip$/, '')}`, name);
        if (existsSync(f)) out[name] = readFileSync(f, 'utf8');
      }
    }
  }
  return out;
}

describe('identity provider file validation', () => {
  const bad = (patch: object): string => JSON.stringify({ ...PROVIDERS, ...patch });
  it.each([
    ['a provider bound to admin', bad({ enterprise: [{ ...PROVIDERS.enterprise[1]!, tenant: 'admin' }] }), /admin/],
    ['one domain for two providers', bad({ enterprise: [PROVIDERS.enterprise[0]!, { ...PROVIDERS.enterprise[1]!, emailDomains: ['acme.example'] }] }), /one provider/],
    ['a plain-http issuer', bad({ enterprise: [{ ...PROVIDERS.enterprise[0]!, issuerUrl: 'http://idp.example' }] }), /issuerUrl/],
    ['an inline client secret', bad({ enterprise: [{ ...PROVIDERS.enterprise[0]!, clientSecret: 'shh' }] }), /clientSecret|Unrecognized/i],
    ['a reserved name', bad({ enterprise: [{ ...PROVIDERS.enterprise[1]!, name: 'CognitoX' }] }), /reserved/],
    ['a domain prefix with "cognito"', bad({ domainPrefix: 'my-cognito' }), /domainPrefix/],
    ['no provider at all', JSON.stringify({ social: [], enterprise: [] }), /no provider/],
    ['not JSON', '{oops', /JSON/],
  ])('refuses %s', (_name, value, message) => {
    expect(() => parseFederation(value, 'prod')).toThrow(message);
  });
});
