/**
 * The SLA job in the templates (infra/sla-watch.ts, docs/notifications.md#sla-job): an EventBridge rule runs
 * the function every 5 minutes with retries; the function's role may only PutItem on the table, Query
 * its GSI2 and GSI1 (a tenant's device list for its outage markers), Query / UpdateItem the table for the
 * below-SLA re-key, and BatchGetItem the tenants' heartbeat histograms for the silent tenants and the outage
 * markers (no Scan, no other table action).
 */
import { describe, expect, it } from 'vitest';
import { ofType, synthPr42 } from '../support/synth.js';

describe('SLA job', () => {
  it('an EventBridge schedule rule every 5 minutes invokes the function, with retries', () => {
    const { t } = synthPr42();
    t.api.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'vigia-pr-42-sla-watch', Handler: 'index.handler', Architectures: ['arm64'] });
    const rules = ofType(t.api, 'AWS::Events::Rule').filter(([, r]) => r.Properties!.ScheduleExpression === 'rate(5 minutes)');
    expect(rules).toHaveLength(1);
    const targets = rules[0]![1].Properties!.Targets as Array<{ RetryPolicy?: { MaximumRetryAttempts: number } }>;
    expect(targets[0]!.RetryPolicy?.MaximumRetryAttempts).toBe(2);
  });

  it("the function's role: the reads and writes of its steps on the table (automatic closure included), Query on GSI1 and GSI2, nothing else on DynamoDB", () => {
    const { t } = synthPr42();
    const [roleId] = ofType(t.api, 'AWS::IAM::Role').find(([, r]) => r.Properties!.Description === 'Vigía SLA job (pr-42)')!;
    const statements = ofType(t.api, 'AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties!.Roles).includes(roleId))
      .flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Array<{ Action: string | string[]; Resource: unknown }> }).Statement);
    const dynamo = statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb:'));
    // PutItem (events), and for the below-SLA re-key Query (tenants, a device's days) and UpdateItem, on the
    // table itself, and BatchGetItem of the heartbeat histograms (silent tenants) (CDK merges them into one
    // statement), and for the automatic closure GetItem (the due incident), DeleteItem / ConditionCheckItem (its
    // closing transaction's elements) and BatchWriteItem (the dropped search words); Query on GSI2 and on GSI1
    // (the device list of a tenant whose outage markers are behind; docs/data-model.md#outage-markers).
    expect(dynamo.map((s) => JSON.stringify(s.Action)).sort()).toEqual([
      '"dynamodb:Query"',
      '["dynamodb:BatchGetItem","dynamodb:BatchWriteItem","dynamodb:ConditionCheckItem","dynamodb:DeleteItem","dynamodb:GetItem","dynamodb:PutItem","dynamodb:Query","dynamodb:UpdateItem"]',
    ]);
    const indexes = JSON.stringify(dynamo.find((s) => s.Action === 'dynamodb:Query')!.Resource);
    expect(indexes).toContain('/index/GSI2');
    expect(indexes).toContain('/index/GSI1');
    expect(indexes).not.toMatch(/GSI3|GSI4/);
    expect(JSON.stringify(dynamo.find((s) => Array.isArray(s.Action))!.Resource)).not.toContain('/index/');
  });
});
