/**
 * AWS plumbing shared by the platform scripts: client construction (region, optional endpoint override for
 * the local stack), CloudFormation outputs of a stage, and the portal `config.json` built from them.
 *
 * Clients are passed in (anything with the SDK v3 `send`), so tests inject fakes or local endpoints.
 * Credentials come from the default provider chain (env, profile, SSO, GitHub OIDC web identity); with an
 * endpoint override and no credentials in the environment, local keys are used: dummy ones for the local
 * DynamoDB engine (it checks none) and the local user pool's operator key for Cognito (its administrative
 * operations need a signature; docs/local-emulation.md#administrative-operations).
 */
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PortalConfig } from '../../lambdas/contract/portal-config.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { sdkDocumentClient } from '../../lambdas/data/table/sdk-client.js';
import { tableName } from '../../lambdas/data/table/table-design.js';
import { stackName, stageConfig } from '../../infra/stage-config.js';
import { BRAND_NAME } from '../../infra/vigia-app.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../local/config.js';
import { userInfo } from 'node:os';
import { ADMIN_GROUP } from '../../lambdas/contract/routes.js';
import type { AuditRequest } from '../../lambdas/domain/audit.js';
import { optional, UsageError, type Parsed } from './cli.js';

/** Where the scripts talk to: a region, optionally a local endpoint (cognito-local proxy / dynoxide). */
export interface Target {
  region: string;
  /** Cognito user-pool endpoint override, e.g. `http://127.0.0.1:9229`. */
  cognitoEndpoint?: string;
  /** DynamoDB endpoint override, e.g. `http://127.0.0.1:8000`. */
  dynamodbEndpoint?: string;
}

/** Region from `--region`, `AWS_REGION`, `AWS_DEFAULT_REGION`, `CDK_DEFAULT_REGION`. @throws Error when none */
export function resolveRegion(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const region = flag ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? env.CDK_DEFAULT_REGION;
  if (!region) throw new Error('no AWS region: pass --region or set AWS_REGION');
  return region;
}

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const credentialsFor = (endpoint?: string) =>
  endpoint && !process.env.AWS_ACCESS_KEY_ID ? { credentials: localCredentials } : {};

export function cognitoClient(t: Target): CognitoIdentityProviderClient {
  // The local pool's administrative operations need its operator key (docs/local-emulation.md#administrative-operations).
  const local = t.cognitoEndpoint && !process.env.AWS_ACCESS_KEY_ID;
  const { accessKeyId, secretAccessKey } = LOCAL_OPERATOR_CREDENTIAL;
  return new CognitoIdentityProviderClient({
    region: t.region,
    ...(t.cognitoEndpoint ? { endpoint: t.cognitoEndpoint } : {}),
    ...(local ? { credentials: { accessKeyId, secretAccessKey } } : {}),
  });
}

/** The stage table (`vigia-<stage>-main`) or an explicit table name, through the data layer's document client. */
export function tableRef(t: Target, name: string): TableRef {
  const client = new DynamoDBClient({
    region: t.region,
    ...(t.dynamodbEndpoint ? { endpoint: t.dynamodbEndpoint } : {}),
    ...credentialsFor(t.dynamodbEndpoint),
  });
  return { doc: sdkDocumentClient(client), tableName: name };
}

/** The IAM action of {@link describeStack}, {@link listStacks}, {@link stageOutputs} and {@link stageTable}. */
export const STAGE_OUTPUTS_ACTIONS = ['cloudformation:DescribeStacks'] as const;

/** Minimal CloudFormation client shape (the real `CloudFormationClient` or a fake). */
export interface CfnLike {
  send(command: DescribeStacksCommand): Promise<{ Stacks?: Stack[]; NextToken?: string }>;
}

export function cloudFormationClient(region: string): CloudFormationClient {
  return new CloudFormationClient({ region });
}

/** Raised when a stage's stack does not exist (not deployed, or another region/account). */
export class StageNotDeployedError extends Error {
  constructor(stack: string, region: string) {
    super(`stack ${stack} not found in ${region}: deploy the stage first (npm run platform:deploy -- --stage …) or check --region / credentials`);
    this.name = 'StageNotDeployedError';
  }
}

/** One stack (null when it does not exist). */
export async function describeStack(cfn: CfnLike, name: string): Promise<Stack | null> {
  try {
    const res = await cfn.send(new DescribeStacksCommand({ StackName: name }));
    return res.Stacks?.[0] ?? null;
  } catch (e) {
    if ((e as { name?: string }).name === 'ValidationError' && /does not exist/.test((e as Error).message)) return null;
    throw e;
  }
}

/** Every stack of the account/region (DescribeStacks, all pages). */
export async function listStacks(cfn: CfnLike): Promise<Stack[]> {
  const out: Stack[] = [];
  let NextToken: string | undefined;
  do {
    const res = await cfn.send(new DescribeStacksCommand(NextToken ? { NextToken } : {}));
    out.push(...(res.Stacks ?? []));
    NextToken = res.NextToken;
  } while (NextToken);
  return out;
}

/** Outputs (key → value) of the stage's Auth, Hosting and Api stacks. @throws StageNotDeployedError */
export async function stageOutputs(cfn: CfnLike, stage: string, region: string): Promise<Record<string, string>> {
  const outputs: Record<string, string> = {};
  for (const part of ['Auth', 'Hosting', 'Api']) {
    const name = stackName(stage, part);
    const stack = await describeStack(cfn, name);
    if (!stack) throw new StageNotDeployedError(name, region);
    for (const o of stack.Outputs ?? []) if (o.OutputKey && o.OutputValue !== undefined) outputs[o.OutputKey] = o.OutputValue;
  }
  return outputs;
}

/**
 * The portal `config.json` of a deployed stage from its stack outputs (same values the PortalDeployment stack
 * uploads). @throws Error naming the missing output; ZodError when a value is malformed
 */
export function portalConfigFromOutputs(stage: string, outputs: Record<string, string>): PortalConfig {
  const need = (key: string): string => {
    const v = outputs[key];
    if (v === undefined) throw new Error(`stage ${stage}: stack output ${key} is missing (redeploy the stage)`);
    return v;
  };
  return PortalConfig.parse({
    region: need('Region'),
    userPoolId: need('UserPoolId'),
    userPoolClientId: need('UserPoolClientId'),
    identityPoolId: need('IdentityPoolId'),
    apiUrl: need('ApiUrl'),
    stage,
    allowSignUp: stageConfig(stage).selfSignUp,
    brandName: BRAND_NAME,
  });
}

/** The stage's DEFAULT table name (`vigia-<stage>-main`); the deployed one may differ after a restore: {@link stageTable}. */
export const stageTableName = (stage: string): string => tableName(stage);

/** The table a deployed stage uses, from its Data stack's outputs. */
export interface StageTable {
  /** Output `TableName` of `Vigia-<stage>-Data` (e.g. `vigia-prod-main`, or `vigia-prod-main-r1` after a restore). */
  tableName: string;
  /** Output `TableStreamArn` (the notification consumer's event source); absent on stacks deployed before it existed. */
  streamArn?: string;
  /** Whether the Data stack owns the table (its name is the stage's default) or adopts one by name (a restore). */
  owned: boolean;
}

/**
 * The table of a deployed stage from the CloudFormation outputs of `Vigia-<stage>-Data` (DescribeStacks):
 * after a restore (`platform:restore`, docs/platform.md#restoring-the-table) the stage uses another table
 * than `vigia-<stage>-main`, and only the deployed outputs know which.
 * @throws StageNotDeployedError when the Data stack does not exist; Error when it has no `TableName` output
 */
export async function stageTable(cfn: CfnLike, stage: string, region: string): Promise<StageTable> {
  const name = stackName(stage, 'Data');
  const stack = await describeStack(cfn, name);
  if (!stack) throw new StageNotDeployedError(name, region);
  const out = (key: string) => stack.Outputs?.find((o) => o.OutputKey === key)?.OutputValue;
  const table = out('TableName');
  if (!table) throw new Error(`stage ${stage}: stack ${name} has no TableName output (redeploy the stage)`);
  const streamArn = out('TableStreamArn');
  return { tableName: table, ...(streamArn ? { streamArn } : {}), owned: table === stageTableName(stage) };
}

/** The command-line options that name a stage's table (`--stage` or `--table`, `--dynamodb-endpoint`, `--region`). */
export const TABLE_OPTIONS = {
  stage: { type: 'string' },
  table: { type: 'string' },
  'dynamodb-endpoint': { type: 'string' },
  region: { type: 'string' },
} as const;

/**
 * The table named by {@link TABLE_OPTIONS}: `--table`, else the table the deployed `--stage` uses (its Data
 * stack's `TableName` output, {@link stageTable}; DescribeStacks), in `--region` (default `$AWS_REGION`),
 * through `--dynamodb-endpoint` when given (local stack).
 * @throws UsageError when neither `--stage` nor `--table` is given, or no region is known;
 *         StageNotDeployedError when the stage's Data stack does not exist
 */
export async function tableFromOptions(
  p: Parsed,
  cfn: (region: string) => CfnLike = cloudFormationClient,
): Promise<{ table: TableRef; tableName: string; stage: string | undefined; region: string }> {
  const stage = optional(p, 'stage');
  const explicit = optional(p, 'table');
  if (!explicit && !stage) throw new UsageError('pass --stage <stage> or --table <name>');
  const region = resolveRegion(optional(p, 'region'));
  const name = explicit ?? (await stageTable(cfn(region), stage!, region)).tableName;
  const endpoint = optional(p, 'dynamodb-endpoint');
  return { table: tableRef({ region, ...(endpoint ? { dynamodbEndpoint: endpoint } : {}) }, name), tableName: name, stage, region };
}

/** The part of an SDK Cognito client the platform scripts use (a real client or a test double). */
export interface CognitoLike {
  send(command: object): Promise<unknown>;
}

/** Resolves the user pool id from `--user-pool-id` or the stage's outputs. @throws UsageError */
export async function resolveUserPoolId(p: { userPoolId?: string | undefined; stage?: string | undefined; region: string }): Promise<string> {
  if (p.userPoolId) return p.userPoolId;
  if (!p.stage) throw new UsageError('pass --stage <stage> or --user-pool-id <id>');
  const outputs = await stageOutputs(cloudFormationClient(p.region), p.stage, p.region);
  const id = outputs.UserPoolId;
  if (!id) throw new Error(`stage ${p.stage}: no UserPoolId output`);
  return id;
}

/**
 * The audit request of a command-line run: the operator (`sub` = `cli:<OS user>`, no e-mail, staff), a
 * `cli-<ms>` request id and source IP `cli`.
 */
export function operatorRequest(now: Date = new Date(), user: string = userInfo().username): AuditRequest {
  return {
    identity: { sub: `cli:${user}`, email: '', groups: [ADMIN_GROUP], tenants: [], isAdmin: true, mfa: true },
    requestId: `cli-${now.getTime()}`,
    sourceIp: 'cli',
    now,
  };
}
