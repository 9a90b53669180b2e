/** Auth and Data stacks: Cognito settings (docs/platform.md#cognito-user-pool) and the single DynamoDB table. */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ADMIN_GROUP } from '../../lambdas/contract/routes.js';
import { TABLE_DESIGN, tableName } from '../../lambdas/data/table-design.js';
import { ofType, synthPr42, synthProd } from '../support/synth.js';

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
  });

  it('creates the admin group and no other group (tenant groups are data)', () => {
    const { t } = synthProd();
    const groups = ofType(t.auth, 'AWS::Cognito::UserPoolGroup').map(([, r]) => r.Properties!.GroupName);
    expect(groups).toEqual([ADMIN_GROUP]);
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
    t.auth.resourceCountIs('AWS::IAM::Policy', 0);
    t.auth.resourceCountIs('AWS::IAM::ManagedPolicy', 0);
    for (const [, role] of ofType(t.auth, 'AWS::IAM::Role')) {
      expect(role.Properties!.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties!.Policies).toBeUndefined();
    }
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
        GlobalSecondaryIndexes: [
          {
            IndexName: d.gsi1.indexName,
            KeySchema: [
              { AttributeName: d.gsi1.partitionKey, KeyType: 'HASH' },
              { AttributeName: d.gsi1.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
        TimeToLiveSpecification: { AttributeName: d.ttlAttribute, Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: prodLike },
        SSESpecification: { SSEEnabled: true },
        DeletionProtectionEnabled: prodLike,
      },
    });
  });
});
