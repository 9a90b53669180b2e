/**
 * `Vigia-Account`: deployed ONCE per account and region, before the first stage (not part of the
 * per-stage app; selected with `-c accountStack=true`, see `bin/app.ts`). It holds the account-level
 * settings every stage relies on:
 *
 *  - the IAM role API Gateway uses to write CloudWatch Logs (trusted by `apigateway.amazonaws.com`, with the
 *    AWS managed policy `AmazonAPIGatewayPushToCloudWatchLogs`), and
 *  - `AWS::ApiGateway::Account`, which sets that role as the account's API Gateway CloudWatch role. Without it
 *    the first stage with access logging fails with "CloudWatch Logs role ARN must be set in account settings
 *    to enable logging" (docs/platform.md#the-account-stack).
 *
 * Both are retained when the stack is deleted (`RETAIN_ON_UPDATE_OR_DELETE`): the setting is shared by every
 * API Gateway API of the account and region, including ones this project does not own. `platform:deploy`
 * checks `apigateway get-account` before deploying a stage and names this stack when the role is missing.
 */
import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/** Stack name (fixed: one per account and region). */
export const ACCOUNT_STACK_NAME = 'Vigia-Account';
/** CDK context key selecting the account stack: `npx cdk deploy Vigia-Account -c accountStack=true`. */
export const ACCOUNT_STACK_CONTEXT = 'accountStack';
/** The command the README and the deploy pre-flight print. */
export const ACCOUNT_STACK_DEPLOY_COMMAND = `npx cdk deploy ${ACCOUNT_STACK_NAME} -c ${ACCOUNT_STACK_CONTEXT}=true`;
/** AWS managed policy that lets API Gateway create log groups/streams and put events. */
export const APIGATEWAY_LOGS_MANAGED_POLICY = 'service-role/AmazonAPIGatewayPushToCloudWatchLogs';

export class AccountStack extends Stack {
  readonly apiGatewayCloudWatchRole: Role;
  readonly apiGatewayAccount: CfnAccount;

  constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, props);
    this.apiGatewayCloudWatchRole = new Role(this, 'ApiGatewayCloudWatchRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: 'API Gateway account setting: writes access and execution logs of every API of this region',
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName(APIGATEWAY_LOGS_MANAGED_POLICY)],
    });
    this.apiGatewayCloudWatchRole.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
    Validations.of(this.apiGatewayCloudWatchRole).acknowledge({
      id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/${APIGATEWAY_LOGS_MANAGED_POLICY}]`,
      reason: 'The AWS managed policy made for the API Gateway account CloudWatch role (AWS API Gateway developer guide, "Set up CloudWatch logging").',
    });

    this.apiGatewayAccount = new CfnAccount(this, 'ApiGatewayAccount', {
      cloudWatchRoleArn: this.apiGatewayCloudWatchRole.roleArn,
    });
    this.apiGatewayAccount.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);

    new CfnOutput(this, 'ApiGatewayCloudWatchRoleArn', {
      value: this.apiGatewayCloudWatchRole.roleArn,
      description: 'API Gateway account CloudWatch role (apigateway get-account shows it as cloudwatchRoleArn)',
    });
  }
}
