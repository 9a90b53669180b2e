/**
 * The user pool's pre token generation trigger (`lambdas/triggers/pre-token-generation.ts`): adds
 * `vigia:mfa` = `totp` to the ID token of a user with TOTP set up, which the API requires of staff
 * (docs/api.md#staff-accounts-and-totp), and, given the stage's table, records the sign-in of a user in no
 * group as an access request in the staff audit log (docs/api.md#access-requests).
 *
 * On a stage with enterprise identity providers (`federation-config.ts`) it also puts a federated user in its
 * provider's tenant group (`FEDERATED_TENANTS`, docs/platform.md#federated-sign-in), with one more permission,
 * `cognito-idp:AdminAddUserToGroup` on this user pool, in its own policy (absent on other stages).
 *
 * Permissions: the function's role may write its own log group, call exactly `cognito-idp:AdminGetUser`
 * on this user pool and, with a table, `dynamodb:PutItem` on that table (nothing else of it). That statement is a separate `iam.Policy` attached to the role, not the role's default
 * policy: the user pool references the function (its LambdaConfig), the function depends on its role's
 * default policy, so a pool ARN in that default policy would be a dependency cycle; the separate policy
 * depends on the pool and nothing depends on it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, type Stack } from 'aws-cdk-lib';
import { type UserPool, UserPoolOperation } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Policy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { preTokenTriggerEnvironment } from '../lambdas/config.js';
import { PRE_TOKEN_FEDERATION_ACTIONS, PRE_TOKEN_MFA_ACTIONS } from '../lambdas/triggers/pre-token-generation.js';
import { HANDLER_BUNDLING, HANDLER_NODE_OPTIONS } from './handler-bundling.js';
import { acknowledgeTracingWildcard } from './lambda-defaults.js';
import { physicalName, type StageConfig } from './stage-config.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Physical name of the trigger function, `vigia-<stage>-pre-token-generation`: the Monitoring stack's
 * `PreTokenGenerationErrors`/`Throttles` alarms address its metrics by it (a failing trigger fails every
 * sign-in: Cognito refuses the authentication when a pre token generation Lambda errors or times out).
 */
export const preTokenGenerationName = (stage: string): string => physicalName(stage, 'pre-token-generation');

/**
 * Adds the trigger to `userPool` (V1 event: ID token claims).
 * @param federatedTenants tenant of each enterprise provider by provider name (`{ AcmeEntra: 'acme' }`); given
 *   only on federated stages: then `FEDERATED_TENANTS` in the environment and AdminAddUserToGroup on the pool
 * @returns the function
 */
export function addPreTokenGenerationTrigger(
  stack: Stack,
  userPool: UserPool,
  config: StageConfig,
  federatedTenants?: Record<string, string>,
  adminConfiguredProviders = false,
): NodejsFunction {
  // Generated name, retention and removal as the API functions' log groups (a retry never fails on a name).
  const logGroup = new LogGroup(stack, 'PreTokenGenerationLogs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
  const role = new Role(stack, 'PreTokenGenerationRole', {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: `Vigía pre token generation trigger (${config.stage}): AdminGetUser on its user pool only`,
  });
  logGroup.grantWrite(role);
  acknowledgeTracingWildcard(role, config);
  const fn = new NodejsFunction(stack, 'PreTokenGenerationFunction', {
    functionName: preTokenGenerationName(config.stage),
    description: `Vigía: adds the TOTP claim staff need to ID tokens (${config.stage})`,
    entry: path.join(REPO_ROOT, 'lambdas', 'triggers', 'pre-token-generation.ts'),
    handler: 'handler',
    projectRoot: REPO_ROOT,
    depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
    runtime: Runtime.NODEJS_24_X,
    architecture: Architecture.ARM_64,
    memorySize: 256,
    // Cognito waits at most 5 s for a trigger.
    timeout: Duration.seconds(5),
    role,
    logGroup,
    tracing: config.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
    environment: { NODE_OPTIONS: HANDLER_NODE_OPTIONS },
    // The AWS SDK v3 Cognito client comes with the Node.js runtime; everything else is bundled (the audit
    // write goes through the handlers' aws-lite client and `@aws-sdk/util-dynamodb` at the locked version).
    bundling: { ...HANDLER_BUNDLING, externalModules: ['@aws-sdk/client-cognito-identity-provider'] },
  });
  userPool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION, fn);
  new Policy(stack, 'PreTokenGenerationAdminGetUser', {
    roles: [role],
    statements: [new PolicyStatement({ actions: [...PRE_TOKEN_MFA_ACTIONS], resources: [userPool.userPoolArn] })],
  });
  const fileProviders = !!federatedTenants && Object.keys(federatedTenants).length > 0;
  // The trigger's settings (lambdas/config.ts); staff-configured providers' tenants are read from the table
  // (GetItem granted with the table, below).
  for (const [name, value] of Object.entries(preTokenTriggerEnvironment({ federatedTenants: federatedTenants ?? {}, federatedTenantsFromTable: adminConfiguredProviders }))) fn.addEnvironment(name, value);
  if (fileProviders || adminConfiguredProviders) {
    new Policy(stack, 'PreTokenGenerationFederatedGroups', {
      roles: [role],
      statements: [new PolicyStatement({ actions: [...PRE_TOKEN_FEDERATION_ACTIONS], resources: [userPool.userPoolArn] })],
    });
  }
  return fn;
}

/**
 * Lets the trigger `fn` record access requests in `table`'s audit log: `TABLE_NAME` in its environment and
 * `dynamodb:PutItem` on that table only, as a separate policy of its role (same reason as AdminGetUser above).
 * With `adminConfiguredProviders`, also `dynamodb:GetItem` of the `IDP#…` items (a staff-configured provider's tenant).
 * Called once the Data stack exists; the Auth stack then depends on it (docs/api.md#access-requests).
 */
export function recordAccessRequestsIn(fn: NodejsFunction, table: ITable, adminConfiguredProviders = false): void {
  for (const [name, value] of Object.entries(preTokenTriggerEnvironment({ tableName: table.tableName }))) fn.addEnvironment(name, value);
  new Policy(fn.stack, 'PreTokenGenerationAuditPut', {
    roles: [fn.role!],
    statements: [
      new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [table.tableArn] }),
      // Staff-configured providers: the tenant of a provider, GetItem of `IDP#<provider>` items only
      // (dynamodb:LeadingKeys: the partition key of every item the request touches; docs/api.md#tenant-identity-provider).
      ...(adminConfiguredProviders
        ? [
            new PolicyStatement({
              actions: ['dynamodb:GetItem'],
              resources: [table.tableArn],
              conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['IDP#*'] } },
            }),
          ]
        : []),
    ],
  });
}
