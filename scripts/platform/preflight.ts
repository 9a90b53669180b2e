/**
 * Checks and settings `platform:deploy` applies around `cdk deploy` (docs/platform.md#deploying-into-an-account):
 *
 *  - before: the account/region has an API Gateway CloudWatch role (`apigateway get-account` →
 *    `cloudwatchRoleArn`), without which the first stage with access logging fails; the error names the
 *    `Vigia-Account` stack that sets it;
 *  - after: production stages get the stack policy of `infra/stack-policy.ts` (deny `Update:Replace` of user
 *    pools and tables) on their Auth and Data stacks (`cloudformation set-stack-policy`).
 *
 * The API Gateway call is the SDK's `GetAccountCommand` (`@aws-sdk/client-api-gateway`, the API behind
 * `aws apigateway get-account`); tests pass a mocked client.
 */
import { APIGatewayClient, GetAccountCommand } from '@aws-sdk/client-api-gateway';
import { type CloudFormationClient, SetStackPolicyCommand } from '@aws-sdk/client-cloudformation';
import { ACCOUNT_STACK_DEPLOY_COMMAND, ACCOUNT_STACK_NAME } from '../../infra/account-stack.js';
import { STATEFUL_STACK_POLICY, guardedStackNames, stageHasStackPolicy } from '../../infra/stack-policy.js';
import { stageConfig } from '../../infra/stage-config.js';

/** The IAM action of the pre-flight check (`GetAccount` = `apigateway:GET` on `/account`). */
export const PREFLIGHT_ACTIONS = ['apigateway:GET'] as const;
/** The IAM action of {@link applyStackPolicies} (production stages' Auth and Data stacks). */
export const STACK_POLICY_ACTIONS = ['cloudformation:SetStackPolicy'] as const;

/** The part of API Gateway's `GetAccount` answer the check reads. */
export interface ApiGatewayAccount {
  readonly cloudwatchRoleArn?: string;
}

/** Raised when the account/region lacks the API Gateway CloudWatch role; the message says how to fix it. */
export class MissingApiGatewayRoleError extends Error {
  constructor(region: string) {
    super(
      `API Gateway in ${region} has no CloudWatch Logs role (apigateway get-account: cloudwatchRoleArn is empty), so the ` +
        `API stage's access logging would fail the deploy. Deploy the once-per-account stack ${ACCOUNT_STACK_NAME} first: ` +
        `${ACCOUNT_STACK_DEPLOY_COMMAND}`,
    );
    this.name = 'MissingApiGatewayRoleError';
  }
}

/** API Gateway `GetAccount` of `region` through `client` (default: a new client of that region). @throws the SDK's errors */
export async function getAccount(region: string, client: Pick<APIGatewayClient, 'send'> = new APIGatewayClient({ region })): Promise<ApiGatewayAccount> {
  const res = await client.send(new GetAccountCommand({}));
  return res.cloudwatchRoleArn ? { cloudwatchRoleArn: res.cloudwatchRoleArn } : {};
}

/**
 * Checks the API Gateway account setting of `region`.
 * @returns the role ARN
 * @throws MissingApiGatewayRoleError when no role is set
 */
export async function checkApiGatewayAccount(
  region: string,
  read: (region: string) => Promise<ApiGatewayAccount> = getAccount,
): Promise<string> {
  const account = await read(region);
  const arn = account.cloudwatchRoleArn?.trim();
  if (!arn) throw new MissingApiGatewayRoleError(region);
  return arn;
}

/**
 * Applies the stateful stack policy to the Auth and Data stacks of a production stage (no-op otherwise).
 * @returns the stack names the policy was set on
 */
export async function applyStackPolicies(cfn: Pick<CloudFormationClient, 'send'>, stage: string): Promise<string[]> {
  if (!stageHasStackPolicy(stageConfig(stage))) return [];
  const names = guardedStackNames(stage);
  for (const StackName of names) {
    await cfn.send(new SetStackPolicyCommand({ StackName, StackPolicyBody: JSON.stringify(STATEFUL_STACK_POLICY) }));
  }
  return names;
}
