/**
 * The pre token generation event of the local user pool (scripts/local/cognito/pre-token-event.ts), shaped as
 * Cognito's for the version the stack configures. AWS: developer guide, "Pre token generation Lambda trigger"
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-lambda-pre-token-generation.html).
 */
import { describe, expect, it } from 'vitest';
import { groupConfiguration, preTokenGenerationEvent, TokenIssueFlows, type PreTokenEventInput } from '../../scripts/local/cognito/pre-token-event.js';
import { accessRequestEntry, PRE_TOKEN_GENERATION_EVENT_VERSION } from '../../lambdas/triggers/pre-token-generation.js';
import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';

const input: PreTokenEventInput = {
  version: '1',
  triggerSource: 'TokenGeneration_Authentication',
  region: 'us-east-1',
  userPoolId: 'local_vigia',
  userName: '3f0c-user',
  clientId: 'vigialocalportalclient0001',
  userAttributes: { sub: '3f0c-user', email: 'ana@acme.example', email_verified: 'true', 'cognito:user_status': 'CONFIRMED' },
  groups: [{ GroupName: 'acme' }],
};

describe('preTokenGenerationEvent', () => {
  it('version 1: every field Cognito sends, the groups in groupConfiguration, claimsOverrideDetails null', () => {
    expect(preTokenGenerationEvent(input)).toEqual({
      version: '1',
      triggerSource: 'TokenGeneration_Authentication',
      region: 'us-east-1',
      userPoolId: 'local_vigia',
      userName: '3f0c-user',
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'vigialocalportalclient0001' },
      request: {
        userAttributes: { sub: '3f0c-user', email: 'ana@acme.example', email_verified: 'true', 'cognito:user_status': 'CONFIRMED' },
        groupConfiguration: { groupsToOverride: ['acme'], iamRolesToOverride: [], preferredRole: null },
      },
      response: { claimsOverrideDetails: null },
    });
  });

  it('client metadata only when there is some', () => {
    expect(preTokenGenerationEvent({ ...input, clientMetadata: {} }).request).not.toHaveProperty('clientMetadata');
    expect(preTokenGenerationEvent({ ...input, clientMetadata: { origen: 'portal' } }).request).toMatchObject({ clientMetadata: { origen: 'portal' } });
  });

  it('version 2: scopes in the request and claimsAndScopeOverrideDetails null', () => {
    const event = preTokenGenerationEvent({ ...input, version: '2', triggerSource: 'TokenGeneration_HostedAuth', scopes: ['openid', 'email'] });
    expect(event.version).toBe('2');
    expect(event.triggerSource).toBe('TokenGeneration_HostedAuth');
    expect(event.request).toMatchObject({ scopes: ['openid', 'email'] });
    expect(event.response).toEqual({ claimsAndScopeOverrideDetails: null });
  });

  it('the stack configures version 1 (the trigger is written for it)', () => {
    expect(PRE_TOKEN_GENERATION_EVENT_VERSION).toBe('1');
  });

  it('groups by precedence, their roles in the same order, the first role preferred', () => {
    expect(
      groupConfiguration([
        { GroupName: 'zeta' },
        { GroupName: 'b', Precedence: 5, RoleArn: 'arn:aws:iam::1:role/b' },
        { GroupName: 'a', Precedence: 1, RoleArn: 'arn:aws:iam::1:role/a' },
      ]),
    ).toEqual({ groupsToOverride: ['a', 'b', 'zeta'], iamRolesToOverride: ['arn:aws:iam::1:role/a', 'arn:aws:iam::1:role/b'], preferredRole: 'arn:aws:iam::1:role/a' });
    expect(groupConfiguration([])).toEqual({ groupsToOverride: [], iamRolesToOverride: [], preferredRole: null });
  });

  it('the trigger sees the groups: a sign-in of a user with a group is no access request, one without is', () => {
    const withGroup = preTokenGenerationEvent(input) as PreTokenGenerationTriggerEvent;
    const without = preTokenGenerationEvent({ ...input, groups: [] }) as PreTokenGenerationTriggerEvent;
    expect(accessRequestEntry(withGroup, 'r1')).toBeNull();
    expect(accessRequestEntry(without, 'r2')?.action).toBe('user.access_request');
  });
});

describe('TokenIssueFlows', () => {
  it('an announced flow is taken once, during its call only', async () => {
    const flows = new TokenIssueFlows();
    let seen: unknown;
    await flows.run('u1', { triggerSource: 'TokenGeneration_NewPasswordChallenge' }, async () => {
      seen = flows.take('u1');
      expect(flows.take('u1')).toBeUndefined();
    });
    expect(seen).toEqual({ triggerSource: 'TokenGeneration_NewPasswordChallenge' });
    await flows.run('u1', { triggerSource: 'TokenGeneration_HostedAuth' }, async () => undefined);
    expect(flows.take('u1')).toBeUndefined();
  });
});
