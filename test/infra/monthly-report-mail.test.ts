/**
 * The monthly report e-mail in the templates (infra/monthly-report-mail.ts, docs/notifications.md#monthly-report-e-mail):
 * the function, its EventBridge rule at 06:00 UTC on the 1st with retries, and a least-privilege role: reads on
 * the registry and tenant partitions, the report's indexes on tenant partitions, UpdateItem on its own delivery
 * records only, ListUsersInGroup, SES SendEmail on the configured identity only (none without one).
 */
import { describe, expect, it } from 'vitest';
import { MONTHLY_REPORT_READ_PARTITIONS, MONTHLY_REPORT_WRITE_PARTITIONS } from '../../infra/monthly-report-mail.js';
import { ofType, roleStatementsOf, synthPr42, synthProd, type PolicyStatementJson } from '../support/synth.js';

type Statement = PolicyStatementJson;
const roleStatements = roleStatementsOf;
const leading = (s: Statement) => (s.Condition as Record<string, Record<string, unknown>>)['ForAllValues:StringLike']!['dynamodb:LeadingKeys'];

describe('monthly report e-mail', () => {
  it('an EventBridge rule invokes the function at 06:00 UTC on the 1st of each month; failed runs are retried', () => {
    const { t } = synthPr42();
    t.api.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'vigia-pr-42-monthly-report-mail', Handler: 'index.handler' });
    const rules = ofType(t.api, 'AWS::Events::Rule').filter(([, r]) => r.Properties!.ScheduleExpression === 'cron(0 6 1 * ? *)');
    expect(rules).toHaveLength(1);
    expect((rules[0]![1].Properties!.Targets as Array<{ RetryPolicy?: { MaximumRetryAttempts: number } }>)[0]!.RetryPolicy?.MaximumRetryAttempts).toBe(2);
  });

  it('least privilege: reads (GetItem, BatchGetItem, Query) on TENANTS and tenant partitions, indexes on tenant partitions, UpdateItem on MONTHLY delivery records only, no Scan, no PutItem, no SES without an identity', () => {
    const statements = roleStatements(synthPr42(), 'Vigía monthly report e-mail (pr-42)');
    const dynamo = statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb:'));
    const actions = dynamo.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])).sort();
    expect([...new Set(actions)]).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    const update = dynamo.find((s) => s.Action === 'dynamodb:UpdateItem')!;
    expect(leading(update)).toEqual([...MONTHLY_REPORT_WRITE_PARTITIONS]);
    expect(JSON.stringify(update.Resource)).not.toContain('/index/');
    const tableReads = dynamo.find((s) => Array.isArray(s.Action) && s.Action.includes('dynamodb:GetItem'))!;
    expect(leading(tableReads)).toEqual([...MONTHLY_REPORT_READ_PARTITIONS]);
    const indexReads = dynamo.filter((s) => JSON.stringify(s.Resource).includes('/index/'));
    expect(indexReads).toHaveLength(1);
    expect(indexReads[0]!.Action).toBe('dynamodb:Query');
    expect(leading(indexReads[0]!)).toEqual(['TENANT#*']);
    expect(statements.filter((s) => JSON.stringify(s.Action).includes('ses:'))).toEqual([]);
  });

  it('SES: SendEmail on the configured identity only (prod)', () => {
    const ses = roleStatements(synthProd(), 'Vigía monthly report e-mail (prod)').filter((s) => JSON.stringify(s.Action).includes('ses:'));
    expect(ses).toHaveLength(1);
    expect(ses[0]!.Action).toBe('ses:SendEmail');
    expect(JSON.stringify(ses[0]!.Resource)).not.toContain('*');
  });
});
