/**
 * The daily digest in the templates (infra/notification-digest.ts, docs/notifications.md#daily-digest): the
 * function, its once-a-day EventBridge rule at the documented UTC hour with retries, a role limited to the
 * partitions it reads and writes, the user pool's ListUsersInGroup and SES SendEmail on the configured
 * identity only, and the Errors/Throttles alarms every background function has.
 */
import { describe, expect, it } from 'vitest';
import { DIGEST_QUERY_PARTITIONS, DIGEST_WRITE_PARTITIONS } from '../../infra/notification-digest.js';
import { DIGEST_HOUR_UTC } from '../../lambdas/domain/notification-digest.js';
import { ofType, roleStatementsOf, synthPr42, synthProd, TEST_SES} from '../support/synth.js';

const roleStatements = roleStatementsOf;

describe('daily notification digest', () => {
  it('an EventBridge rule invokes the function once a day at the documented UTC hour; failed runs are retried', () => {
    const { t } = synthPr42();
    t.api.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'vigia-pr-42-notification-digest', Handler: 'index.handler', Runtime: 'nodejs24.x', Architectures: ['arm64'], Timeout: 600 });
    expect(DIGEST_HOUR_UTC).toBe(6);
    const rules = ofType(t.api, 'AWS::Events::Rule').filter(([, r]) => r.Properties!.ScheduleExpression === 'cron(0 6 * * ? *)');
    expect(rules).toHaveLength(1);
    expect((rules[0]![1].Properties!.Targets as Array<{ RetryPolicy?: { MaximumRetryAttempts: number } }>)[0]!.RetryPolicy?.MaximumRetryAttempts).toBe(2);
    t.api.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 6 * 3600 });
  });

  it("the role: Query on the digest's partitions, UpdateItem on its delivery records only, ListUsersInGroup on the pool, no SES without an identity", () => {
    const statements = roleStatements(synthPr42(), 'Vigía daily notification digest (pr-42)');
    const dynamo = statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb:'));
    expect(dynamo.map((s) => s.Action).sort()).toEqual(['dynamodb:Query', 'dynamodb:UpdateItem']);
    const leading = (action: string) => (dynamo.find((s) => s.Action === action)!.Condition as Record<string, Record<string, unknown>>)['ForAllValues:StringLike']!['dynamodb:LeadingKeys'];
    expect(leading('dynamodb:Query')).toEqual([...DIGEST_QUERY_PARTITIONS]);
    expect(leading('dynamodb:UpdateItem')).toEqual([...DIGEST_WRITE_PARTITIONS]);
    for (const s of dynamo) expect(JSON.stringify(s.Resource)).not.toContain('/index/');
    expect(statements.filter((s) => JSON.stringify(s.Action).includes('cognito-idp:')).map((s) => s.Action)).toEqual(['cognito-idp:ListUsersInGroup']);
    expect(statements.filter((s) => JSON.stringify(s.Action).includes('ses:'))).toEqual([]);
  });

  it('SES: SendEmail on the configured identity only, as the consumer; the sender in the environment (prod)', () => {
    const prod = synthProd();
    const ses = roleStatements(prod, 'Vigía daily notification digest (prod)').filter((s) => JSON.stringify(s.Action).includes('ses:'));
    expect(ses).toHaveLength(1);
    expect(ses[0]!.Action).toBe('ses:SendEmail');
    const resources = JSON.stringify(ses[0]!.Resource);
    expect(resources).toContain(`:identity/${TEST_SES.fromEmail}`);
    expect(resources).toContain(':identity/vigia.example');
    expect(resources).not.toContain('*');
    const [, fn] = ofType(prod.t.api, 'AWS::Lambda::Function').find(([, f]) => f.Properties!.FunctionName === 'vigia-prod-notification-digest')!;
    expect((fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({ NOTIFY_EMAIL_FROM: `Vigía <${TEST_SES.fromEmail}>`, SES_REGION: TEST_SES.sesRegion });
  });

  it('Errors and Throttles alarms, like the other background functions', () => {
    const { t } = synthPr42();
    const names = ofType(t.monitoring, 'AWS::CloudWatch::Alarm').map(([, a]) => JSON.stringify(a.Properties!.AlarmDescription ?? '') + JSON.stringify(a.Properties!.Metrics ?? a.Properties!.Dimensions ?? ''));
    const digest = names.filter((n) => n.includes('vigia-pr-42-notification-digest'));
    expect(digest.some((n) => n.includes('unhandled errors'))).toBe(true);
    expect(digest.some((n) => n.includes('throttled invocations'))).toBe(true);
  });
});
