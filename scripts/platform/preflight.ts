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
 *
 * Fresh-account preflight ({@link freshAccountPreflight}, docs/platform.md#fresh-account-preflight): what a new
 * AWS account refuses or limits, read before `cdk deploy` so the operator learns it in seconds, with what to do:
 *  - Lambda concurrency quota (`GetAccountSettings`): new accounts can start far below the default 1,000;
 *  - SES (`sesv2 GetAccount`, `GetEmailIdentity`), stages whose Cognito mails real users: sandbox, sending
 *    paused, the identity Cognito's SourceArn names not verified;
 *  - CloudFront account verification: no read-only API tells; `ListDistributions` proves it when the account
 *    already holds a distribution, otherwise the operator is warned.
 * `platform:deploy --skip-preflight` skips every check of this module.
 */
import { APIGatewayClient, GetAccountCommand } from '@aws-sdk/client-api-gateway';
import { type CloudFormationClient, SetStackPolicyCommand } from '@aws-sdk/client-cloudformation';
import { CloudFrontClient, ListDistributionsCommand } from '@aws-sdk/client-cloudfront';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetAccountCommand as GetSesAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { ACCOUNT_STACK_DEPLOY_COMMAND, ACCOUNT_STACK_NAME } from '../../infra/account-stack.js';
import { STATEFUL_STACK_POLICY, guardedStackNames, stageHasStackPolicy } from '../../infra/stack-policy.js';
import { type CognitoSesEmail, type StageConfig, sesIdentity, stackName, stageConfig, stageOverridesFromContext } from '../../infra/stage-config.js';
import { synthStage } from '../aws-rules/templates.js';
import { cloudFormationClient, describeStack } from './aws.js';

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

/** IAM actions of the fresh-account checks (Service Authorization Reference: all three read actions take resource `*`). */
export const FRESH_ACCOUNT_ACTIONS = ['lambda:GetAccountSettings', 'cloudfront:ListDistributions'] as const;
/** IAM actions of the SES check: `ses:GetAccount` on `*`, `ses:GetEmailIdentity` on `arn:aws:ses:<region>:<account>:identity/<name>`. */
export const SES_PREFLIGHT_ACTIONS = { account: ['ses:GetAccount'], identity: ['ses:GetEmailIdentity'] } as const;

/** AWS documents each check's advice points to. */
export const PREFLIGHT_DOCS = {
  lambdaQuotas: 'https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html',
  lambdaReserved: 'https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html',
  quotaIncrease: 'https://docs.aws.amazon.com/servicequotas/latest/userguide/request-quota-increase.html',
  sesProduction: 'https://docs.aws.amazon.com/ses/latest/dg/request-production-access.html',
  sesIdentities: 'https://docs.aws.amazon.com/ses/latest/dg/creating-identities.html',
  cloudFrontQuotas: 'https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/cloudfront-limits.html',
  support: 'https://docs.aws.amazon.com/awssupport/latest/user/case-management.html',
} as const;

/**
 * Concurrency Lambda keeps unreserved for functions without reserved concurrency: a function may reserve only
 * up to the account's unreserved concurrency minus 100 (Lambda developer guide, "Configuring reserved
 * concurrency", {@link PREFLIGHT_DOCS}.lambdaReserved).
 */
export const LAMBDA_UNRESERVED_MINIMUM = 100;
/** Service Quotas code of Lambda's "Concurrent executions" quota (per region). */
export const LAMBDA_CONCURRENCY_QUOTA_CODE = 'L-B99A9384';

/** Outcome of one check: `fail` stops the deploy, `warn` is printed, `ok`/`skip` are informational. */
export type PreflightStatus = 'ok' | 'warn' | 'fail' | 'skip';
/** One check's result: what was read and, unless `ok`/`skip`, what the operator must do, with the AWS document. */
export interface PreflightResult {
  readonly check: 'lambda-concurrency' | 'ses' | 'cloudfront';
  readonly status: PreflightStatus;
  readonly message: string;
  readonly docs?: string;
}

/** What a stage needs of Lambda's account concurrency. */
export interface ConcurrencyNeed {
  /** Sum of `ReservedConcurrentExecutions` of the stage's functions (synthesized templates). */
  readonly reserved: number;
  /** The stage's API Gateway burst limit (requests served at once: one Lambda invocation each). */
  readonly apiBurst: number;
  /** Whether the stage serves real users (production profile): too little concurrency fails instead of warning. */
  readonly production: boolean;
}

/** A CloudFormation template's resources, as far as {@link reservedConcurrency} reads them. */
export interface TemplateLike {
  readonly Resources?: Record<string, { readonly Type: string; readonly Properties?: Record<string, unknown> }>;
}

/** Sum of `ReservedConcurrentExecutions` over every `AWS::Lambda::Function` of `templates` (0 when none reserve). */
export function reservedConcurrency(templates: readonly TemplateLike[]): number {
  let sum = 0;
  for (const t of templates) {
    for (const r of Object.values(t.Resources ?? {})) {
      const v = r.Type === 'AWS::Lambda::Function' ? r.Properties?.ReservedConcurrentExecutions : undefined;
      if (typeof v === 'number') sum += v;
    }
  }
  return sum;
}

/** The concurrency need of a stage: its functions' reservations and its API burst limit (`stage-config.ts`). */
export function concurrencyNeed(config: StageConfig, templates: readonly TemplateLike[]): ConcurrencyNeed {
  return { reserved: reservedConcurrency(templates), apiBurst: config.throttling.burstLimit, production: config.profile === 'production' };
}

const errorText = (e: unknown): string => {
  const err = e as { name?: string; message?: string };
  return `${err.name ?? 'Error'}: ${err.message ?? String(e)}`;
};
const unreadable = (check: PreflightResult['check'], what: string, action: string, e: unknown): PreflightResult => ({
  check,
  status: 'fail',
  message: `could not read ${what} (${errorText(e)}): the deploy credentials need ${action}; fix that or deploy with --skip-preflight`,
});

/**
 * Lambda concurrency: the account's `ConcurrentExecutions` quota must hold the stage's reservations plus the
 * 100 Lambda keeps unreserved (a smaller one makes CloudFormation's create of a reserving function fail), and
 * the stage's API burst (each request in flight is one invocation; below it, requests are throttled).
 * `UnreservedConcurrentExecutions` must still leave 100 after the stage's reservations (other functions may
 * already reserve). Quota too small for the burst: `fail` on production stages, `warn` on dev and previews.
 * Sources: Lambda quotas ({@link PREFLIGHT_DOCS}.lambdaQuotas, "New AWS accounts have reduced concurrency"),
 * reserved concurrency ({@link PREFLIGHT_DOCS}.lambdaReserved).
 * @param lambda a Lambda client of the deploy region
 */
export async function checkLambdaConcurrency(lambda: Pick<LambdaClient, 'send'>, region: string, need: ConcurrencyNeed): Promise<PreflightResult> {
  let limit: number | undefined;
  let unreserved: number | undefined;
  try {
    const res = await lambda.send(new GetAccountSettingsCommand({}));
    limit = res.AccountLimit?.ConcurrentExecutions;
    unreserved = res.AccountLimit?.UnreservedConcurrentExecutions;
  } catch (e) {
    return unreadable('lambda-concurrency', `Lambda's account settings in ${region}`, 'lambda:GetAccountSettings', e);
  }
  if (limit === undefined || unreserved === undefined) {
    return { check: 'lambda-concurrency', status: 'fail', message: `Lambda GetAccountSettings in ${region} returned no AccountLimit; deploy with --skip-preflight to go on anyway` };
  }
  const required = need.reserved + Math.max(LAMBDA_UNRESERVED_MINIMUM, need.apiBurst);
  const request =
    `request a higher "Concurrent executions" quota (Service Quotas, quota code ${LAMBDA_CONCURRENCY_QUOTA_CODE}): ` +
    `aws service-quotas request-service-quota-increase --region ${region} --service-code lambda --quota-code ${LAMBDA_CONCURRENCY_QUOTA_CODE} --desired-value 1000 ` +
    `(${PREFLIGHT_DOCS.quotaIncrease})`;
  const read = `Lambda in ${region}: account concurrency ${limit}, unreserved ${unreserved}`;
  if (need.reserved > 0 && unreserved - need.reserved < LAMBDA_UNRESERVED_MINIMUM) {
    return {
      check: 'lambda-concurrency',
      status: 'fail',
      message: `${read}; the stage's functions reserve ${need.reserved}, which would leave less than the ${LAMBDA_UNRESERVED_MINIMUM} Lambda keeps unreserved, so CloudFormation would refuse them: ${request}`,
      docs: PREFLIGHT_DOCS.lambdaReserved,
    };
  }
  if (limit < required) {
    return {
      check: 'lambda-concurrency',
      status: need.production ? 'fail' : 'warn',
      message:
        `${read}; the stage needs at least ${required} (${need.reserved} reserved + max(${LAMBDA_UNRESERVED_MINIMUM} unreserved, API burst ${need.apiBurst})). ` +
        `New accounts start with a reduced quota and requests beyond it are throttled: ${request}`,
      docs: PREFLIGHT_DOCS.lambdaQuotas,
    };
  }
  return { check: 'lambda-concurrency', status: 'ok', message: `${read} (the stage needs ${required})` };
}

/**
 * SES for Cognito's e-mail (stages with an SES identity, i.e. production stages): in the identity's region,
 * `GetAccount` must show production access (the sandbox delivers only to verified recipients, 200 mails a
 * day) and sending enabled, and `GetEmailIdentity` of the identity Cognito's SourceArn names (the verified
 * domain or the address, `sesIdentity`) must be verified for sending. When the address is not an identity but
 * its domain is verified, the advice is `-c sesVerifiedDomain=<domain>`. Stages without an identity use
 * Cognito's default sender: `skip`.
 * Sources: SES production access ({@link PREFLIGHT_DOCS}.sesProduction), identities ({@link PREFLIGHT_DOCS}.sesIdentities).
 * @param ses returns an SESv2 client of a region
 */
export async function checkSes(ses: (region: string) => Pick<SESv2Client, 'send'>, region: string, email: CognitoSesEmail | undefined): Promise<PreflightResult> {
  if (!email) return { check: 'ses', status: 'skip', message: 'no SES identity: Cognito sends with its default sender (dev and previews)' };
  const sesRegion = email.sesRegion ?? region;
  const client = ses(sesRegion);
  let account;
  try {
    account = await client.send(new GetSesAccountCommand({}));
  } catch (e) {
    return unreadable('ses', `the SES account in ${sesRegion}`, 'ses:GetAccount', e);
  }
  if (account.SendingEnabled === false) {
    return { check: 'ses', status: 'fail', message: `SES sending is paused for this account in ${sesRegion} (SendingEnabled false; EnforcementStatus ${account.EnforcementStatus ?? 'unknown'}): Cognito's invitations would not be sent; see the SES console's Reputation metrics and contact AWS Support (${PREFLIGHT_DOCS.support})`, docs: PREFLIGHT_DOCS.support };
  }
  if (account.ProductionAccessEnabled !== true) {
    const quota = account.SendQuota ? ` (quota ${account.SendQuota.Max24HourSend ?? '?'} per 24 h)` : '';
    return {
      check: 'ses',
      status: 'fail',
      message: `SES in ${sesRegion} is in the sandbox${quota}: mail reaches only verified addresses, so customers would never get their invitation or password-reset codes. Request production access (SES console → Account dashboard → Request production access, or aws sesv2 put-account-details --region ${sesRegion} --production-access-enabled ...): ${PREFLIGHT_DOCS.sesProduction}`,
      docs: PREFLIGHT_DOCS.sesProduction,
    };
  }
  const identity = sesIdentity(email);
  const verified = async (name: string): Promise<boolean | 'missing'> => {
    try {
      const res = await client.send(new GetEmailIdentityCommand({ EmailIdentity: name }));
      return res.VerifiedForSendingStatus === true;
    } catch (e) {
      if ((e as { name?: string }).name === 'NotFoundException') return 'missing';
      throw e;
    }
  };
  let state: boolean | 'missing';
  try {
    state = await verified(identity);
  } catch (e) {
    return unreadable('ses', `the SES identity ${identity} in ${sesRegion}`, 'ses:GetEmailIdentity', e);
  }
  if (state !== true) {
    const domain = email.fromEmail.slice(email.fromEmail.lastIndexOf('@') + 1);
    if (state === 'missing' && !email.verifiedDomain && (await verified(domain).catch(() => false)) === true) {
      return { check: 'ses', status: 'fail', message: `SES in ${sesRegion} verified the domain ${domain}, not the address ${identity}: Cognito would refuse the user pool. Deploy with --context sesVerifiedDomain=${domain} (docs/platform.md#cognito-e-mail)`, docs: PREFLIGHT_DOCS.sesIdentities };
    }
    const what = state === 'missing' ? 'is not an SES identity' : 'is not verified for sending yet';
    return { check: 'ses', status: 'fail', message: `${identity} ${what} in ${sesRegion}: Cognito refuses a user pool whose sender identity is unverified. Create it (aws sesv2 create-email-identity --region ${sesRegion} --email-identity ${identity}) and publish the DNS records or click the link SES sends: ${PREFLIGHT_DOCS.sesIdentities}`, docs: PREFLIGHT_DOCS.sesIdentities };
  }
  const q = account.SendQuota;
  return { check: 'ses', status: 'ok', message: `SES in ${sesRegion}: production access, ${identity} verified, quota ${q?.Max24HourSend ?? '?'} per 24 h (${q?.SentLast24Hours ?? 0} sent), ${q?.MaxSendRate ?? '?'}/s` };
}

/**
 * CloudFront account verification. New accounts may be refused distributions ("Your account must be verified
 * before you can add new CloudFront resources") only when CloudFormation creates one; AWS documents no
 * read-only API that shows it. The check reads what proves it: an account that already holds a distribution
 * (`ListDistributions`, one item) or a stage whose Hosting stack exists has passed it (`ok`). Otherwise `warn`
 * with the remedy: if the deploy fails with that message, open an AWS Support case asking to verify the account
 * for CloudFront ({@link PREFLIGHT_DOCS}.support), then deploy again.
 * @param cloudfront a CloudFront client (global API, `us-east-1`)
 * @param hostingExists whether the stage's `Vigia-<stage>-Hosting` stack already exists
 */
export async function checkCloudFront(cloudfront: Pick<CloudFrontClient, 'send'>, hostingExists: boolean): Promise<PreflightResult> {
  if (hostingExists) return { check: 'cloudfront', status: 'ok', message: "CloudFront: the stage's distribution exists already" };
  let count: number;
  try {
    const res = await cloudfront.send(new ListDistributionsCommand({ MaxItems: 1 }));
    count = res.DistributionList?.Quantity ?? res.DistributionList?.Items?.length ?? 0;
  } catch (e) {
    return unreadable('cloudfront', 'the account\'s CloudFront distributions', 'cloudfront:ListDistributions', e);
  }
  if (count > 0) return { check: 'cloudfront', status: 'ok', message: 'CloudFront: the account already holds a distribution, so it may create more' };
  return {
    check: 'cloudfront',
    status: 'warn',
    message:
      'CloudFront: this account has no distribution yet, and AWS offers no read-only way to tell whether a new account may create one. ' +
      'If the Hosting stack fails with "Your account must be verified before you can add new CloudFront resources", open an AWS Support case ' +
      `(Account and billing → ask to verify the account for CloudFront; ${PREFLIGHT_DOCS.support}), wait for the answer, then run platform:deploy again`,
    docs: PREFLIGHT_DOCS.support,
  };
}

/** The clients of {@link freshAccountPreflight} (tests pass mocked ones). */
export interface PreflightClients {
  readonly lambda: Pick<LambdaClient, 'send'>;
  readonly ses: (region: string) => Pick<SESv2Client, 'send'>;
  readonly cloudfront: Pick<CloudFrontClient, 'send'>;
}

/** SDK clients of `region` (CloudFront's API is global, signed for us-east-1). */
export function preflightClients(region: string): PreflightClients {
  return {
    lambda: new LambdaClient({ region }),
    ses: (r) => new SESv2Client({ region: r }),
    cloudfront: new CloudFrontClient({ region: 'us-east-1' }),
  };
}

/** Raised when a fresh-account check fails; the message lists each failure with what to do. */
export class PreflightFailedError extends Error {
  constructor(readonly results: readonly PreflightResult[]) {
    super(
      `preflight: ${results.filter((r) => r.status === 'fail').map((r) => `[${r.check}] ${r.message}`).join('\n  ')}\n` +
        'Fix the above, or deploy anyway with --skip-preflight (docs/platform.md#fresh-account-preflight).',
    );
    this.name = 'PreflightFailedError';
  }
}

/**
 * Runs the fresh-account checks for a stage (Lambda concurrency, SES, CloudFront), each independent of the
 * others' outcome.
 * @returns every check's result (also the passing ones, for the log)
 * @throws PreflightFailedError when any check fails
 */
export async function freshAccountPreflight(opts: {
  readonly region: string;
  readonly config: StageConfig;
  readonly need: ConcurrencyNeed;
  readonly hostingExists: boolean;
  readonly clients: PreflightClients;
}): Promise<PreflightResult[]> {
  const results = await Promise.all([
    checkLambdaConcurrency(opts.clients.lambda, opts.region, opts.need),
    checkSes(opts.clients.ses, opts.region, opts.config.email),
    checkCloudFront(opts.clients.cloudfront, opts.hostingExists),
  ]);
  if (results.some((r) => r.status === 'fail')) throw new PreflightFailedError(results);
  return results;
}

/** Options of {@link deployPreflight}. */
export interface DeployPreflightOptions {
  readonly stage: string;
  readonly region: string;
  /** `platform:deploy --context key=value` values (the CDK context the stage is deployed with). */
  readonly context: readonly string[];
  /** `--skip-preflight`: no check at all (logged). */
  readonly skip: boolean;
  readonly log: (line: string) => void;
  /** Default: SDK clients of the region ({@link preflightClients}). */
  readonly clients?: PreflightClients;
  /** Default: `DescribeStacks` of `Vigia-<stage>-Hosting` in the region. */
  readonly hostingExists?: () => Promise<boolean>;
  /** Default: the API Gateway account check of {@link checkApiGatewayAccount}. */
  readonly apiGatewayRole?: (region: string) => Promise<string>;
}

/**
 * Everything `platform:deploy` checks before `cdk deploy`: the API Gateway CloudWatch role, then the
 * fresh-account checks with the stage's configuration (from `--context`, as `bin/app.ts` reads it) and the
 * reserved concurrency of its synthesized templates (no bundling; a stage that does not synthesize counts 0,
 * `cdk deploy` then reports why). Logs one line per check.
 * @throws MissingApiGatewayRoleError, PreflightFailedError, or Error for invalid context values
 */
export async function deployPreflight(o: DeployPreflightOptions): Promise<PreflightResult[]> {
  if (o.skip) {
    o.log('preflight skipped (--skip-preflight): API Gateway role, Lambda concurrency, SES and CloudFront not checked');
    return [];
  }
  const roleArn = await (o.apiGatewayRole ?? ((r: string) => checkApiGatewayAccount(r)))(o.region);
  o.log(`API Gateway CloudWatch role: ${roleArn}`);
  const values = new Map(o.context.map((c) => [c.slice(0, c.indexOf('=') < 0 ? c.length : c.indexOf('=')), c.slice(c.indexOf('=') + 1)] as const));
  const ctx = (k: string) => (values.get(k) ? values.get(k) : undefined);
  const overrides = stageOverridesFromContext(ctx);
  const config = stageConfig(o.stage, overrides);
  let templates: TemplateLike[] = [];
  try {
    templates = synthStage({ stage: o.stage, overrides, env: { region: o.region }, ...(ctx('previewDeployer') === 'github' ? { previewDeployer: true } : {}) }).stacks.map((s) => s.template);
  } catch (e) {
    o.log(`preflight: the stage's templates did not synthesize (${String((e as Error).message).split('\n')[0]}); counting 0 reserved concurrency`);
  }
  const hostingExists = o.hostingExists ?? (async () => (await describeStack(cloudFormationClient(o.region), stackName(o.stage, 'Hosting'))) !== null);
  let results: PreflightResult[];
  try {
    results = await freshAccountPreflight({ region: o.region, config, need: concurrencyNeed(config, templates), hostingExists: await hostingExists(), clients: o.clients ?? preflightClients(o.region) });
  } catch (e) {
    if (e instanceof PreflightFailedError) for (const r of e.results) o.log(`preflight ${r.status.toUpperCase()} [${r.check}] ${r.message}`);
    throw e;
  }
  for (const r of results) o.log(`preflight ${r.status.toUpperCase()} [${r.check}] ${r.message}`);
  return results;
}
