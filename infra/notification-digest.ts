/**
 * The daily digest in AWS (docs/notifications.md#daily-digest): the function `vigia-<stage>-notification-digest`
 * (`lambdas/triggers/notification-digest.ts`) and an EventBridge rule that invokes it once a day at
 * `DIGEST_HOUR_UTC` (06:00 UTC, `cron(0 6 * * ? *)`), with the function's asynchronous retries (2) for a run
 * that left digests to send. Its role may exactly:
 *  - Query the table on the partitions it reads (`dynamodb:LeadingKeys`: the tenant registry `TENANTS`, the
 *    users' preferences `TENANT#*#NOTIFPREFS`, the feed `TENANT#*#ACTIVITY`, the digest delivery records
 *    `TENANT#*#DELIVERY#DIGEST-*`) and UpdateItem only the digest delivery records (claim / finish);
 *  - ListUsersInGroup on the stage's user pool (recipients = the tenant group's enabled members);
 *  - `ses:SendEmail` on the configured SES identity only ({@link sesSendStatement}, as the notification
 *    consumer). A stage without an SES identity gets no SES permission and its job sends nothing.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { lambdaEnvironment } from '../lambdas/config.js';
import { COGNITO_ASSIGNEE_ACTIONS } from '../lambdas/data/cognito-users.js';
import { TENANTS_PK } from '../lambdas/data/keys.js';
import { SES_SEND_ACTIONS } from '../lambdas/data/notification-senders.js';
import { DIGEST_HOUR_UTC } from '../lambdas/domain/notification-digest.js';
import { acknowledgeTracingWildcard, functionLogsAndRole, lambdaDefaults } from './lambda-defaults.js';
import { physicalName, type StageConfig } from './stage-config.js';

/** Name of the digest function. */
export const notificationDigestName = (stage: string): string => physicalName(stage, 'notification-digest');

/** Partitions the digest job reads (`dynamodb:LeadingKeys` of its Query statement). */
export const DIGEST_QUERY_PARTITIONS = [TENANTS_PK, 'TENANT#*#NOTIFPREFS', 'TENANT#*#ACTIVITY', 'TENANT#*#DELIVERY#DIGEST-*'] as const;
/** Partitions the digest job writes (its delivery records). */
export const DIGEST_WRITE_PARTITIONS = ['TENANT#*#DELIVERY#DIGEST-*'] as const;

/**
 * `ses:SendEmail` on the stage's SES identity only: the address and its domain (either may be the verified
 * identity) and the configuration set if any; undefined without an identity.
 */
export function sesSendStatement(scope: Construct, config: StageConfig): PolicyStatement | undefined {
  const email = config.email;
  if (!email) return undefined;
  const stack = Stack.of(scope);
  const sesRegion = email.sesRegion ?? stack.region;
  const identityArn = (identity: string) => stack.formatArn({ service: 'ses', region: sesRegion, resource: 'identity', resourceName: identity });
  const domain = email.fromEmail.slice(email.fromEmail.lastIndexOf('@') + 1);
  return new PolicyStatement({
    actions: [...SES_SEND_ACTIONS],
    resources: [
      identityArn(email.fromEmail),
      identityArn(domain),
      ...(email.configurationSet ? [stack.formatArn({ service: 'ses', region: sesRegion, resource: 'configuration-set', resourceName: email.configurationSet })] : []),
    ],
  });
}

/** The SES part of the notification functions' environment (sender, region, configuration set). */
export function sesEnvironment(scope: Construct, config: StageConfig): { emailFrom?: string; sesRegion?: string; sesConfigurationSet?: string } {
  const email = config.email;
  if (!email) return {};
  return {
    emailFrom: `${email.fromName ?? 'Vigía'} <${email.fromEmail}>`,
    sesRegion: email.sesRegion ?? Stack.of(scope).region,
    ...(email.configurationSet ? { sesConfigurationSet: email.configurationSet } : {}),
  };
}

export interface NotificationDigestProps {
  readonly config: StageConfig;
  readonly table: ITable;
  readonly siteOrigin: string;
  readonly userPoolId: string;
  readonly userPoolArn: string;
}

/** The scheduled digest job: function, role, log group and the daily EventBridge rule. */
export class NotificationDigest extends Construct {
  readonly fn: NodejsFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: NotificationDigestProps) {
    super(scope, id);
    const { config, table } = props;
    const { logGroup, role } = functionLogsAndRole(this, config, `Vigía daily notification digest (${config.stage})`);
    const leadingKeys = (keys: readonly string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...keys] } });
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [table.tableArn], conditions: leadingKeys(DIGEST_QUERY_PARTITIONS) }));
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [table.tableArn], conditions: leadingKeys(DIGEST_WRITE_PARTITIONS) }));
    role.addToPrincipalPolicy(new PolicyStatement({ actions: [...COGNITO_ASSIGNEE_ACTIONS], resources: [props.userPoolArn] }));
    const ses = sesSendStatement(this, config);
    if (ses) role.addToPrincipalPolicy(ses);
    acknowledgeTracingWildcard(role, config);

    this.fn = new NodejsFunction(this, 'Function', {
      ...lambdaDefaults(
        config,
        'triggers/notification-digest.ts',
        lambdaEnvironment({
          stage: config.stage,
          tableName: table.tableName,
          userPoolId: props.userPoolId,
          serviceName: 'vigia-notification-digest',
          logLevel: config.logLevel,
          retention: { ...config.dataRetention },
          notifications: { siteUrl: props.siteOrigin, ...sesEnvironment(this, config), allowLocalWebhooks: false },
        }),
      ),
      functionName: notificationDigestName(config.stage),
      description: `Vigía: daily digest e-mail of the activity feed (${config.stage})`,
      memorySize: 256,
      // Every tenant's subscribers, one SES call each; a run cut short is finished by the retry (idempotent).
      timeout: Duration.minutes(10),
      // A run that left digests to send fails; Lambda's asynchronous retries run it again (same day).
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      role,
      logGroup,
    });
    this.rule = new Rule(this, 'Schedule', {
      description: `Vigía ${config.stage}: daily notification digest (${String(DIGEST_HOUR_UTC).padStart(2, '0')}:00 UTC)`,
      schedule: Schedule.cron({ minute: '0', hour: String(DIGEST_HOUR_UTC) }),
      targets: [new LambdaFunction(this.fn, { retryAttempts: 2 })],
    });
  }
}
