/**
 * Every API function is told the portal's app client id (`USER_POOL_CLIENT_IDS`), so the handlers refuse
 * an ID token issued to another app client of the pool: API Gateway's Cognito user-pool authorizer accepts
 * a token of any app client of the pool
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-integrate-with-cognito.html),
 * and the token's `aud` names the app client it was issued to
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html).
 */
import { describe, expect, it } from 'vitest';
import { HANDLER_NAMES } from '../../lambdas/contract/routes.js';
import { lambdaConfigFromEnv } from '../../lambdas/config.js';
import { BACKGROUND_FUNCTIONS } from '../../infra/monitoring-stack.js';
import { ofType, synthPr42 } from '../support/synth.js';

describe('API functions know the portal app client', () => {
  it('USER_POOL_CLIENT_IDS of every function is the Auth stack’s portal client', () => {
    const { t } = synthPr42();
    // API functions only: the notification consumer and the SLA job take no requests (no ID token to check).
    const background = BACKGROUND_FUNCTIONS.map((b) => `vigia-pr-42-${b}`);
    const fns = ofType(t.api, 'AWS::Lambda::Function').filter(
      ([, f]) => JSON.stringify(f.Properties).includes('TABLE_NAME') && !background.includes(String(f.Properties!.FunctionName)),
    );
    expect(fns.map(([, f]) => f.Properties!.FunctionName).sort()).toEqual(HANDLER_NAMES.map((h) => `vigia-pr-42-${h}`).sort());
    for (const [id, f] of fns) {
      const env = (f.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(JSON.stringify(env.USER_POOL_CLIENT_IDS), id).toMatch(/Vigia-pr-42-Auth.*PortalClient/);
    }
  });

  it('the handlers read it back as the accepted audiences', () => {
    const config = lambdaConfigFromEnv({ STAGE: 'dev', TABLE_NAME: 't', AWS_REGION: 'eu-west-1', USER_POOL_CLIENT_IDS: 'abc123' });
    expect(config.userPoolClientIds).toEqual(['abc123']);
  });
});
