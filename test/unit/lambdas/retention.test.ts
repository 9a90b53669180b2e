import { describe, expect, it } from 'vitest';
import { lambdaConfigFromEnv } from '../../../lambdas/config.js';
import { DEFAULT_RETENTION } from '../../../lambdas/data/retention.js';

describe('time-series retention (TTL days)', () => {
  const env = { STAGE: 'dev', TABLE_NAME: 'vigia-dev-main', AWS_REGION: 'eu-west-1' };

  it('reads a valid number of days from the Lambda environment and rejects others', () => {
    expect(lambdaConfigFromEnv({ ...env, AVAILABILITY_RETENTION_DAYS: '30', O365_EVENT_RETENTION_DAYS: '3650', AUDIT_RETENTION_DAYS: '400' }).retention).toEqual({
      availabilityDays: 30,
      o365EventDays: 3650,
      auditDays: 400,
    });
    for (const bad of ['0', '-5', '1.5', 'abc', '3651']) {
      expect(() => lambdaConfigFromEnv({ ...env, O365_EVENT_RETENTION_DAYS: bad }), bad).toThrow(/retention/);
      expect(() => lambdaConfigFromEnv({ ...env, AUDIT_RETENTION_DAYS: bad }), bad).toThrow(/retention/);
    }
  });

  it('has one default per kind of data', () => {
    expect(DEFAULT_RETENTION).toEqual({ availabilityDays: 400, o365EventDays: 90, auditDays: 400 });
    expect(lambdaConfigFromEnv(env).retention).toEqual(DEFAULT_RETENTION);
  });
});
