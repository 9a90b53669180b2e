import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { preTokenTriggerConfigFromEnv, preTokenTriggerEnvironment } from '../../../lambdas/config.js';
import { AuditEntry } from '../../../lambdas/contract/schemas.js';
import { accessRequestEntry, createPreTokenGenerationHandler, MFA_CLAIM } from '../../../lambdas/triggers/pre-token-generation.js';

const event = (): PreTokenGenerationTriggerEvent =>
  ({
    version: '1',
    triggerSource: 'TokenGeneration_RefreshTokens',
    region: 'eu-west-1',
    userPoolId: 'eu-west-1_abc',
    userName: 'admin-sub',
    callerContext: { awsSdkVersion: '3', clientId: 'client' },
    request: { userAttributes: { sub: 'admin-sub' }, groupConfiguration: { groupsToOverride: ['admin'], iamRolesToOverride: [], preferredRole: undefined } },
    response: { claimsOverrideDetails: null },
  }) as unknown as PreTokenGenerationTriggerEvent;

describe('pre token generation trigger (docs/api.md#staff-accounts-and-totp)', () => {
  it('adds vigia:mfa=totp when AdminGetUser lists SOFTWARE_TOKEN_MFA, asking about the event user in the event pool', async () => {
    const asked: string[] = [];
    const h = createPreTokenGenerationHandler(async (pool, user) => (asked.push(`${pool}/${user}`), ['SOFTWARE_TOKEN_MFA']));
    const out = await h(event());
    expect(out.response.claimsOverrideDetails?.claimsToAddOrOverride).toEqual({ [MFA_CLAIM]: 'totp' });
    expect(asked).toEqual(['eu-west-1_abc/admin-sub']);
  });
  it('adds nothing without TOTP, or when AdminGetUser fails (the sign-in still succeeds)', async () => {
    expect((await createPreTokenGenerationHandler(async () => ['SMS_MFA'])(event())).response.claimsOverrideDetails).toBeNull();
    const logged: string[] = [];
    const failing = createPreTokenGenerationHandler(async () => { throw new Error('throttled'); }, (m) => logged.push(m));
    expect((await failing(event())).response.claimsOverrideDetails).toBeNull();
    expect(logged).toHaveLength(1);
  });
});

/** A sign-in (or refresh) event of a user with `groups`. */
const signIn = (groups: string[], triggerSource = 'TokenGeneration_Authentication', emailVerified = 'true'): PreTokenGenerationTriggerEvent => {
  const e = event();
  (e as { triggerSource: string }).triggerSource = triggerSource;
  e.userName = 'new-user-sub';
  e.request.userAttributes = { sub: 'new-user-sub', email: 'nueva@example.com', email_verified: emailVerified };
  e.request.groupConfiguration.groupsToOverride = groups;
  return e;
};

describe('access requests: a sign-in of a user in no group is audited for staff (docs/api.md#access-requests)', () => {
  it('records user.access_request in the staff audit log from the event, once per sign-in, never on refresh or with a group', async () => {
    const stored: unknown[] = [];
    const h = createPreTokenGenerationHandler(async () => [], undefined, async (e) => void stored.push(e));
    await h(signIn([]), { awsRequestId: 'req-1' });
    expect(stored).toHaveLength(1);
    const entry = AuditEntry.parse(stored[0]);
    expect(entry).toMatchObject({
      tenantId: '_staff',
      action: 'user.access_request',
      actor: { sub: 'new-user-sub', email: 'nueva@example.com' },
      target: { type: 'user', id: 'new-user-sub' },
      after: { email: 'nueva@example.com' },
      requestId: 'req-1',
    });
    await h(signIn([], 'TokenGeneration_RefreshTokens'));
    await h(signIn(['acme']));
    await h(signIn(['admin'], 'TokenGeneration_NewPasswordChallenge'));
    expect(stored).toHaveLength(1);
    await h(signIn([], 'TokenGeneration_NewPasswordChallenge'));
    expect(stored).toHaveLength(2);
  });

  it('keeps an unverified e-mail out of the actor (shown only as the request’s data)', () => {
    const entry = accessRequestEntry(signIn([], 'TokenGeneration_Authentication', 'false'), 'r', new Date('2026-11-23T10:00:00Z'))!;
    expect(entry.actor).toEqual({ sub: 'new-user-sub' });
    expect(entry.at).toBe('2026-11-23T10:00:00.000Z');
  });

  it('issues the token even when the audit write fails (the failure is logged)', async () => {
    const logged: string[] = [];
    const h = createPreTokenGenerationHandler(async () => ['SOFTWARE_TOKEN_MFA'], (m) => logged.push(m), async () => { throw new Error('throttled'); });
    const out = await h(signIn([]));
    expect(out.response.claimsOverrideDetails?.claimsToAddOrOverride).toEqual({ [MFA_CLAIM]: 'totp' });
    expect(logged).toEqual(['recording the access request failed; the token is issued anyway']);
  });
});

describe('the trigger\'s configuration (lambdas/config.ts: written by the infra, read by the deployed trigger)', () => {
  it('round-trips table, providers and staff-configured providers through the environment; empty settings add no variable', () => {
    const env = preTokenTriggerEnvironment({ tableName: 'vigia-dev-main', federatedTenants: { AcmeIdP: 'acme' }, federatedTenantsFromTable: true });
    expect(env).toEqual({ TABLE_NAME: 'vigia-dev-main', FEDERATED_TENANTS: '{"AcmeIdP":"acme"}', FEDERATED_TENANTS_FROM_TABLE: 'true' });
    expect(preTokenTriggerConfigFromEnv({ ...env, AWS_REGION: 'eu-west-1' })).toEqual({ region: 'eu-west-1', tableName: 'vigia-dev-main', federatedTenants: { AcmeIdP: 'acme' }, federatedTenantsFromTable: true });
    expect(preTokenTriggerEnvironment({ federatedTenants: {}, federatedTenantsFromTable: false })).toEqual({});
    expect(preTokenTriggerConfigFromEnv({ TABLE_NAME: '' })).toEqual({ region: '', federatedTenants: {}, federatedTenantsFromTable: false });
  });
  it('never maps a provider to staff, and refuses a malformed provider map loudly', () => {
    expect(preTokenTriggerConfigFromEnv({ FEDERATED_TENANTS: '{"Evil":"admin","AcmeIdP":"acme"}' }).federatedTenants).toEqual({ AcmeIdP: 'acme' });
    expect(() => preTokenTriggerConfigFromEnv({ FEDERATED_TENANTS: '["acme"]' })).toThrow(SyntaxError);
  });
});
