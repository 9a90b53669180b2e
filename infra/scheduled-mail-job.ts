/**
 * What the scheduled e-mail jobs (the daily digest, `notification-digest.ts`; the monthly report,
 * `monthly-report-mail.ts`) have in common in AWS, declared once: SES sending rights on the stage's identity
 * only, the notification settings of their environment, and {@link ScheduledMailJob} — log group and role
 * (`functionLogsAndRole`), ListUsersInGroup on the stage's user pool (recipients = the tenant group's
 * enabled members), `ses:SendEmail` when the stage has an identity, the function (`lambdaDefaults` with the
 * one `config.json` shape, `lambdas/config.ts`) with Lambda's asynchronous retries (2, events up to 6 h old)
 * for a run that left mail to send, and the EventBridge rule that invokes it. Each job adds its own table
 * statements (`dynamodb:LeadingKeys`-fenced) through {@link leadingKeys}.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, type Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { lambdaEnvironment } from '../lambdas/config.js';
import { COGNITO_ASSIGNEE_ACTIONS } from '../lambdas/data/cognito-users.js';
import { SES_SEND_ACTIONS } from '../lambdas/data/notification-senders.js';
import { acknowledgeTracingWildcard, functionLogsAndRole, lambdaDefaults } from './lambda-defaults.js';
import type { StageConfig } from './stage-config.js';

/** An IAM condition limiting DynamoDB calls to items whose partition key matches one of `keys` (`StringLike`). */
export const leadingKeys = (keys: readonly string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...keys] } });

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

/** What every scheduled e-mail job is given by its stack. */
export interface ScheduledMailJobProps {
  readonly config: StageConfig;
  readonly table: ITable;
  readonly siteOrigin: string;
  readonly userPoolId: string;
  readonly userPoolArn: string;
}

/** What tells one job from another. */
export interface ScheduledMailJobSpec {
  /** The log group and role's description, e.g. `Vigía daily notification digest (<stage>)`. */
  readonly roleDescription: string;
  /** The job's table statements (before the Cognito and SES ones). */
  readonly tableStatements: (table: ITable) => PolicyStatement[];
  /** Handler entry under `lambdas/`, e.g. `triggers/notification-digest.ts`. */
  readonly entry: string;
  /** Powertools service name, e.g. `vigia-notification-digest`. */
  readonly serviceName: string;
  readonly functionName: string;
  readonly description: string;
  /** MB. */
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly schedule: Schedule;
  readonly ruleDescription: string;
}

/** A scheduled e-mail job: function, role, log group and its EventBridge rule (see the module doc). */
export class ScheduledMailJob extends Construct {
  readonly fn: NodejsFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: ScheduledMailJobProps, spec: ScheduledMailJobSpec) {
    super(scope, id);
    const { config, table } = props;
    const { logGroup, role } = functionLogsAndRole(this, config, spec.roleDescription);
    for (const s of spec.tableStatements(table)) role.addToPrincipalPolicy(s);
    role.addToPrincipalPolicy(new PolicyStatement({ actions: [...COGNITO_ASSIGNEE_ACTIONS], resources: [props.userPoolArn] }));
    const ses = sesSendStatement(this, config);
    if (ses) role.addToPrincipalPolicy(ses);
    acknowledgeTracingWildcard(role, config);

    this.fn = new NodejsFunction(this, 'Function', {
      ...lambdaDefaults(
        config,
        spec.entry,
        lambdaEnvironment({
          stage: config.stage,
          tableName: table.tableName,
          userPoolId: props.userPoolId,
          serviceName: spec.serviceName,
          logLevel: config.logLevel,
          retention: { ...config.dataRetention },
          notifications: { siteUrl: props.siteOrigin, ...sesEnvironment(this, config), allowLocalWebhooks: false },
        }),
      ),
      functionName: spec.functionName,
      description: spec.description,
      memorySize: spec.memorySize,
      timeout: spec.timeout,
      // A run that left mail to send fails; Lambda's asynchronous retries run it again (each job is idempotent).
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      role,
      logGroup,
    });
    this.rule = new Rule(this, 'Schedule', {
      description: spec.ruleDescription,
      schedule: spec.schedule,
      targets: [new LambdaFunction(this.fn, { retryAttempts: 2 })],
    });
  }
}
