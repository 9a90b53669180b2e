import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createPreTokenGenerationHandler, MFA_CLAIM } from '../../../lambdas/triggers/pre-token-generation.js';

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
