/**
 * The SLA job in AWS (docs/notifications.md#sla-job): an EventBridge schedule rule runs
 * `lambdas/triggers/sla-watch.ts` every `SLA_WATCH_INTERVAL_MS` (5 minutes); the function reads the SOC queue
 * index (GSI2) and writes the `sla.at_risk` / `sla.breached` activity events with conditional PutItems, and keeps
 * the tenants' outage markers (docs/data-model.md#outage-markers). Its role may only write its log group, Query
 * the indexes its access patterns declare (`indexesOf('sla-watch')`: GSI2, and GSI1 for a tenant's device list)
 * and use the table actions granted below. EventBridge
 * retries a failed invocation (twice); a repeated run writes nothing twice (deterministic event keys).
 */
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { lambdaEnvironment } from '../lambdas/config.js';
import { SLA_WATCH_INTERVAL_MS } from '../lambdas/data/activity.js';
import { indexesOf } from '../lambdas/data/access-patterns.js';
import { acknowledgeTracingWildcard, functionLogsAndRole, lambdaDefaults } from './lambda-defaults.js';
import { physicalName, type StageConfig } from './stage-config.js';

/** Physical name of the SLA job function of a stage (`vigia-<stage>-sla-watch`). */
export function slaWatchFunctionName(stage: string): string {
  return physicalName(stage, 'sla-watch');
}

export interface SlaWatchProps {
  readonly config: StageConfig;
  readonly table: ITable;
  readonly runtime: Runtime;
}

/** The scheduled SLA job: function, role, log group and the EventBridge rule. */
export class SlaWatch extends Construct {
  readonly fn: NodejsFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: SlaWatchProps) {
    super(scope, id);
    const { config, table } = props;
    const { logGroup, role } = functionLogsAndRole(this, config, `Vigía SLA job (${config.stage})`);
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [table.tableArn] }));
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexesOf('sla-watch').map((i) => `${table.tableArn}/index/${i}`) }));
    // The below-SLA index re-key (`rekeyBelowSla` per tenant): the tenant list and a device's days (Query), the
    // device item's GSI2 key (UpdateItem). The outage markers (`markOutages`): the markers (Query), each mark's
    // transaction (ConditionCheck device, Update heartbeat item, Put marker), a stale marker's DeleteItem.
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:Query', 'dynamodb:UpdateItem'], resources: [table.tableArn] }));
    // The silent tenants (`findSilentTenants`): the tenants' heartbeat histograms, 100 a BatchGetItem.
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:BatchGetItem'], resources: [table.tableArn] }));
    // The automatic closure (`closeDueIncidents`, docs/sla.md#automatic-closure): the due incident (GetItem), its
    // closing transaction (Put/Update/Delete/ConditionCheck elements: incident, history, audit, event,
    // aggregates, queue and closure entries) and the dropped search words (BatchWriteItem).
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem', 'dynamodb:BatchWriteItem'], resources: [table.tableArn] }),
    );
    acknowledgeTracingWildcard(role, config);
    this.fn = new NodejsFunction(this, 'Function', {
      ...lambdaDefaults(
        config,
        'triggers/sla-watch.ts',
        lambdaEnvironment({ stage: config.stage, tableName: table.tableName, serviceName: 'vigia-sla-watch', logLevel: config.logLevel, retention: { ...config.dataRetention } }),
        props.runtime,
      ),
      functionName: slaWatchFunctionName(config.stage),
      description: `Vigía: SLA at-risk / breached activity events (${config.stage})`,
      memorySize: 256,
      timeout: Duration.minutes(2),
      role,
      logGroup,
    });
    this.rule = new Rule(this, 'Schedule', {
      description: `Vigía ${config.stage}: SLA at-risk / breached events`,
      schedule: Schedule.rate(Duration.minutes(SLA_WATCH_INTERVAL_MS / 60_000)),
      targets: [new LambdaFunction(this.fn, { retryAttempts: 2 })],
    });
  }
}
