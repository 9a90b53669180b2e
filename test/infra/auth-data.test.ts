/** Auth and Data stacks: Cognito settings (docs/platform.md#cognito-user-pool) and the single DynamoDB table. */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ADMIN_GROUP } from '../../lambdas/contract/routes.js';
import { TABLE_DESIGN, tableName } from '../../lambdas/data/table/table-design.js';
import { ofType, synthPr42, synthProd } from '../support/synth.js';
import { PORTAL_CLIENT_WRITE_ATTRIBUTES } from '../../infra/user-pool-attributes.js';

describe('Auth stack', () => {
  it.each([
    ['pr-42', synthPr42, false],
    ['prod', synthProd, true],
  ] as const)('user pool of %s: e-mail username, policy 8 without classes, optional TOTP, e-mail recovery', (stage, get, prodLike) => {
    const { t } = get();
    t.auth.resourceCountIs('AWS::Cognito::UserPool', 1);
    t.auth.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolName: `vigia-${stage}-users`,
      UsernameAttributes: ['email'],
      AliasAttributes: Match.absent(),
      AutoVerifiedAttributes: ['email'],
      Policies: {
        PasswordPolicy: {
          MinimumLength: 8,
          RequireLowercase: false,
          RequireUppercase: false,
          RequireNumbers: false,
          RequireSymbols: false,
        },
      },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      DeviceConfiguration: { ChallengeRequiredOnNewDevice: false, DeviceOnlyRememberedOnUserPrompt: true },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      VerificationMessageTemplate: Match.objectLike({ DefaultEmailOption: 'CONFIRM_WITH_CODE' }),
      // Self sign-up is off on production stages and previews (dev only has it).
      AdminCreateUserConfig: Match.objectLike({ AllowAdminCreateUserOnly: true }),
      DeletionProtection: prodLike ? 'ACTIVE' : 'INACTIVE',
    });
  });

  it('app client: no secret, SRP + rotating refresh tokens, no user-existence errors, no OAuth', () => {
    const { t } = synthPr42();
    const clients = ofType(t.auth, 'AWS::Cognito::UserPoolClient');
    expect(clients).toHaveLength(1);
    const p = clients[0]![1].Properties!;
    expect(p.GenerateSecret).toBe(false);
    // Refresh token rotation replaces the REFRESH_TOKEN_AUTH flow (GetTokensFromRefreshToken refreshes).
    expect([...(p.ExplicitAuthFlows as string[])].sort()).toEqual(['ALLOW_USER_SRP_AUTH']);
    expect(p.RefreshTokenRotation).toEqual({ Feature: 'ENABLED', RetryGracePeriodSeconds: 10 });
    expect(p.PreventUserExistenceErrors).toBe('ENABLED');
    expect(p.AllowedOAuthFlowsUserPoolClient).toBe(false);
    expect(p.ClientName).toBe('vigia-pr-42-portal');
    // What users may write (SignUp, UpdateUserAttributes): the list the local pool enforces too
    // (infra/user-pool-attributes.ts); never email_verified or identities.
    expect([...(p.WriteAttributes as string[])].sort()).toEqual([...PORTAL_CLIENT_WRITE_ATTRIBUTES].sort());
    expect(p.WriteAttributes).not.toContain('email_verified');
  });

  it('creates the admin group and the customer role groups, no other group (tenant groups are data)', () => {
    const { t } = synthProd();
    const groups = ofType(t.auth, 'AWS::Cognito::UserPoolGroup').map(([, r]) => r.Properties!.GroupName);
    expect(groups).toEqual([ADMIN_GROUP, 'customer-viewer', 'customer-operator', 'customer-admin']);
  });

  it('identity pool: only this pool/client, no unauthenticated identities, roles without policies', () => {
    const { t } = synthPr42();
    t.auth.hasResourceProperties('AWS::Cognito::IdentityPool', {
      IdentityPoolName: 'vigia-pr-42-identities',
      AllowUnauthenticatedIdentities: false,
      CognitoIdentityProviders: [
        Match.objectLike({ ClientId: { Ref: Match.stringLikeRegexp('PortalClient') } }),
      ],
    });
    t.auth.resourceCountIs('AWS::IAM::ManagedPolicy', 0);
    // The identity pool's roles (assumed through cognito-identity) carry no policies at all; the only
    // policies of the stack belong to the pre token generation trigger's role (test below).
    const identityRoles = ofType(t.auth, 'AWS::IAM::Role').filter(([, r]) => JSON.stringify(r.Properties!.AssumeRolePolicyDocument).includes('cognito-identity.amazonaws.com'));
    expect(identityRoles.length).toBeGreaterThan(0);
    for (const [id, role] of identityRoles) {
      expect(role.Properties!.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties!.Policies).toBeUndefined();
      for (const [pid, p] of ofType(t.auth, 'AWS::IAM::Policy')) expect(JSON.stringify(p.Properties!.Roles), pid).not.toContain(id);
    }
  });

  it.each([
    ['pr-42', synthPr42],
    ['prod', synthProd],
  ] as const)('%s: a pre token generation trigger whose role may call only cognito-idp:AdminGetUser on this pool and dynamodb:PutItem on the stage table (docs/api.md#staff-accounts-and-totp, #access-requests)', (_stage, get) => {
    const { t } = get();
    const pool = ofType(t.auth, 'AWS::Cognito::UserPool')[0]!;
    const fns = ofType(t.auth, 'AWS::Lambda::Function');
    expect(fns).toHaveLength(1);
    const [fnId, fn] = fns[0]!;
    expect((pool[1].Properties!.LambdaConfig as Record<string, unknown>).PreTokenGeneration).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    // Every statement of every policy on the trigger's role: its log group, X-Ray, and AdminGetUser on the pool.
    const statements = ofType(t.auth, 'AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties!.Roles).includes(roleId))
      .flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Array<{ Action: string | string[]; Resource: unknown }> }).Statement);
    const cognito = statements.filter((s) => JSON.stringify(s.Action).includes('cognito-idp'));
    expect(cognito).toEqual([expect.objectContaining({ Action: 'cognito-idp:AdminGetUser', Effect: 'Allow', Resource: { 'Fn::GetAtt': [pool[0], 'Arn'] } })]);
    // Access requests: PutItem on the Data stack's table (imported), its name in TABLE_NAME.
    const dynamo = statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb'));
    expect(dynamo).toEqual([expect.objectContaining({ Action: 'dynamodb:PutItem', Effect: 'Allow' })]);
    expect(JSON.stringify(dynamo[0]!.Resource)).toMatch(/Fn::ImportValue|Data/);
    expect(Object.keys((fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables)).toContain('TABLE_NAME');
    for (const s of statements) {
      const actions = ([] as string[]).concat(s.Action);
      expect(actions.every((a) => a === 'cognito-idp:AdminGetUser' || a === 'dynamodb:PutItem' || a.startsWith('logs:') || a.startsWith('xray:')), JSON.stringify(actions)).toBe(true);
    }
    // Cognito may invoke it, from this pool only.
    t.auth.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'cognito-idp.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [pool[0], 'Arn'] },
    });
  });
});

describe('Data stack', () => {
  it.each([
    ['pr-42', synthPr42, false],
    ['prod', synthProd, true],
  ] as const)('%s: table from TABLE_DESIGN, on-demand, PITR on prod only, AWS-managed encryption', (stage, get, prodLike) => {
    const { t } = get();
    const d = TABLE_DESIGN;
    t.data.resourceCountIs('AWS::DynamoDB::Table', 1);
    t.data.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: prodLike ? 'RetainExceptOnCreate' : 'Delete',
      Properties: {
        TableName: tableName(stage),
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: d.partitionKey, KeyType: 'HASH' },
          { AttributeName: d.sortKey, KeyType: 'RANGE' },
        ],
        // GSI1 (tenant lists), GSI2 (staff's cross-tenant SOC queue and audit log), GSI3 (incidents by status), GSI4 (a tenant's SOC queue).
        GlobalSecondaryIndexes: [d.gsi1, d.gsi2, d.gsi3, d.gsi4].map((g) => ({
          IndexName: g.indexName,
          KeySchema: [
            { AttributeName: g.partitionKey, KeyType: 'HASH' },
            { AttributeName: g.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        TimeToLiveSpecification: { AttributeName: d.ttlAttribute, Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: prodLike },
        SSESpecification: { SSEEnabled: true },
        DeletionProtectionEnabled: prodLike,
      },
    });
  });
});
