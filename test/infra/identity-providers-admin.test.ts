/**
 * Staff-configured identity providers in the templates (docs/api.md#tenant-identity-provider): with the providers
 * file's `adminConfiguredProviders`, the admin Lambda's role gains exactly the Cognito provider and app client
 * actions on this user pool and the Secrets Manager actions on this stage's name prefix (cdk-nag acknowledged with a
 * reason: `synth` throws on any unacknowledged finding), its environment names the prefix and the hosted domain;
 * the trigger reads `IDP#…` items only (dynamodb:LeadingKeys) and may put users in groups; config.json shows the
 * company button. Without the flag (a federated stage from before, or no federation) none of it is there.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COGNITO_IDP_ADMIN_ACTIONS } from '../../lambdas/data/cognito-identity-providers.js';
import { COGNITO_ADMIN_ACTIONS } from '../../lambdas/data/cognito-users.js';
import { PortalConfig } from '../../lambdas/contract/portal-config.js';
import { SECRETS_ACTIONS } from '../../lambdas/data/secrets.js';
import { lambdaConfigFromEnv } from '../../lambdas/config.js';
import { ofType, PROD_ENV, synth, synthProd, TEST_SES, type Synthed } from '../support/synth.js';

const ONLY_ADMIN_CONFIGURED = JSON.stringify({ adminConfiguredProviders: true });
const FILE_PROVIDER = JSON.stringify({
  enterprise: [{ type: 'saml', name: 'GlobexSaml', tenant: 'globex', emailDomains: ['globex.example'], metadataUrl: 'https://idp.globex.example/metadata.xml' }],
});
const synthProdAdminIdps = () => synth('prod', { env: PROD_ENV, alarmEmail: 'soc@example.com', overrides: { email: TEST_SES, identityProviders: ONLY_ADMIN_CONFIGURED } });
const synthProdFileOnly = () => synth('prod', { env: PROD_ENV, alarmEmail: 'soc@example.com', overrides: { email: TEST_SES, identityProviders: FILE_PROVIDER } });

type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };

/** The admin function's environment and every statement of its role's policies. */
function adminFunction(s: Synthed) {
  const [, fn] = ofType(s.t.api, 'AWS::Lambda::Function').find(([, f]) => String(f.Properties!.FunctionName).endsWith('-admin'))!;
  const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const statements = ofType(s.t.api, 'AWS::IAM::Policy')
    .filter(([, p]) => JSON.stringify(p.Properties!.Roles).includes(roleId))
    .flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement);
  return { vars: (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables, statements };
}

function triggerStatements(s: Synthed) {
  const [, fn] = ofType(s.t.auth, 'AWS::Lambda::Function')[0]!;
  const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return {
    vars: (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables,
    statements: ofType(s.t.auth, 'AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties!.Roles).includes(roleId))
      .flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement),
  };
}

/** The config.json the site deployment uploads. */
function configJson(s: Synthed): string {
  for (const [, d] of ofType(s.t.portal, 'Custom::CDKBucketDeployment')) {
    for (const k of d.Properties!.SourceObjectKeys as string[]) {
      const f = path.join(s.assembly.directory, `asset.${k.replace(/\.zip$/, '')}`, 'config.json');
      if (existsSync(f)) return readFileSync(f, 'utf8');
    }
  }
  throw new Error('no config.json uploaded');
}

const actionsOf = (statements: Statement[]) => statements.flatMap((s) => ([] as string[]).concat(s.Action));

describe('staff-configured identity providers (adminConfiguredProviders)', () => {
  it('admin role: the Cognito provider and app client actions on this user pool only; Secrets Manager on vigia/prod/identity-providers/* only', () => {
    const s = synthProdAdminIdps();
    const { statements, vars } = adminFunction(s);
    // CDK merges the statements on the pool's ARN: the user administration actions and this feature's, nothing more.
    const cognito = statements.filter((st) => actionsOf([st]).some((a) => a.startsWith('cognito-idp:')));
    expect(actionsOf(cognito).sort()).toEqual([...COGNITO_ADMIN_ACTIONS, ...COGNITO_IDP_ADMIN_ACTIONS].sort());
    for (const st of cognito) {
      expect(JSON.stringify(st.Resource)).toMatch(/UserPool.*Arn/);
      expect(JSON.stringify(st.Resource)).not.toContain('*');
    }
    const secrets = statements.find((st) => actionsOf([st]).some((a) => a.startsWith('secretsmanager:')))!;
    expect(([] as string[]).concat(secrets.Action).sort()).toEqual([...SECRETS_ACTIONS].sort());
    expect(JSON.stringify(secrets.Resource)).toContain(':secretsmanager:eu-west-1:123456789012:secret:vigia/prod/identity-providers/*');
    // Nothing else of Secrets Manager or Cognito's provider API anywhere in the role.
    expect(statements.filter((st) => actionsOf([st]).some((a) => a.startsWith('secretsmanager:')))).toHaveLength(1);
    expect(vars.IDP_SECRET_PREFIX).toBe('vigia/prod/identity-providers/');
    expect(vars.IDP_OAUTH_DOMAIN).toBe('vigia-prod.auth.eu-west-1.amazoncognito.com');
  });

  it('trigger: reads the tenant of IDP#… items only (GetItem, dynamodb:LeadingKeys) and may add users to groups on this pool', () => {
    const { statements, vars } = triggerStatements(synthProdAdminIdps());
    expect(vars.FEDERATED_TENANTS_FROM_TABLE).toBe('true');
    expect(vars.FEDERATED_TENANTS).toBeUndefined();
    const get = statements.find((st) => actionsOf([st]).includes('dynamodb:GetItem'))!;
    expect(get.Action).toBe('dynamodb:GetItem');
    expect(get.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['IDP#*'] } });
    expect(actionsOf(statements)).toContain('cognito-idp:AdminAddUserToGroup');
  });

  it('a Cognito domain and OAuth on the app client even with no provider in the file; config.json shows the company button', () => {
    const s = synthProdAdminIdps();
    expect(ofType(s.t.auth, 'AWS::Cognito::UserPoolDomain')).toHaveLength(1);
    const client = ofType(s.t.auth, 'AWS::Cognito::UserPoolClient')[0]![1].Properties!;
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect(client.SupportedIdentityProviders).toEqual(['COGNITO']);
    const config = PortalConfig.parse(JSON.parse(configJson(s).replace(/<<marker:0xbaba:\d+>>/g, 'x')));
    expect(config.oauth).toMatchObject({ domain: 'vigia-prod.auth.eu-west-1.amazoncognito.com', socialProviders: [], enterprise: true });
  });
});

describe('without adminConfiguredProviders', () => {
  it.each([
    ['no federation', synthProd],
    ['providers from the file only', synthProdFileOnly],
  ] as const)('%s: the admin role has no provider/app client/Secrets Manager action; the trigger reads no IDP# item', (_name, get) => {
    const s = get();
    const { statements, vars } = adminFunction(s);
    const actions = actionsOf(statements);
    for (const a of [...COGNITO_IDP_ADMIN_ACTIONS, ...SECRETS_ACTIONS]) expect(actions).not.toContain(a);
    expect(vars.IDP_SECRET_PREFIX).toBeUndefined();
    const trigger = triggerStatements(s);
    expect(actionsOf(trigger.statements)).not.toContain('dynamodb:GetItem');
    expect(trigger.vars.FEDERATED_TENANTS_FROM_TABLE).toBeUndefined();
  });
});

describe('environment-agnostic stage', () => {
  it('pr-42 with adminConfiguredProviders synthesizes without unacknowledged cdk-nag findings (the secret prefix ARN with pseudo parameters)', () => {
    const s = synth('pr-42', { overrides: { identityProviders: JSON.stringify({ adminConfiguredProviders: true, domainPrefix: 'vigia-pr-42-x' }) } });
    const { statements } = adminFunction(s);
    expect(JSON.stringify(statements.find((st) => actionsOf([st]).includes('secretsmanager:CreateSecret'))!.Resource)).toContain(':secret:vigia/pr-42/identity-providers/*');
  });

  it('the admin Lambda knows the file\u2019s providers and their tenants (IDP_STAGE_PROVIDERS), so each tenant\u2019s card shows the one routing its domain; none without them', () => {
    const { vars } = adminFunction(synthProdFileOnly());
    // Read back as the Lambda reads it (lambdaConfigFromEnv), with the template's other variables given plain values.
    const env = { STAGE: 'prod', TABLE_NAME: 't', AWS_REGION: 'eu-west-1', IDP_STAGE_PROVIDERS: String(vars.IDP_STAGE_PROVIDERS) };
    expect(lambdaConfigFromEnv(env).stageProviders).toEqual([
      { name: 'GlobexSaml', type: 'saml', tenant: 'globex', emailDomains: ['globex.example'] },
    ]);
    expect(adminFunction(synthProdAdminIdps()).vars.IDP_STAGE_PROVIDERS).toBeUndefined();
  });
});
