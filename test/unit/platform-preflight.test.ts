/**
 * The fresh-account preflight of `platform:deploy` (scripts/platform/preflight.ts; issue 29 point 12;
 * docs/platform.md#fresh-account-preflight) against the AWS API shapes with `aws-sdk-client-mock`: Lambda
 * `GetAccountSettings` (concurrency quota), SESv2 `GetAccount` / `GetEmailIdentity` (sandbox, identity) and
 * CloudFront `ListDistributions` (account verification). Each check: passes, fails with the right message and
 * AWS document, and an API error is reported (not mistaken for a pass).
 */
import { CloudFrontClient, ListDistributionsCommand } from '@aws-sdk/client-cloudfront';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { stageConfig } from '../../infra/stage-config.js';
import { synthStage } from '../../scripts/aws-rules/templates.js';
import {
  checkCloudFront,
  checkLambdaConcurrency,
  checkSes,
  concurrencyNeed,
  deployPreflight,
  freshAccountPreflight,
  LAMBDA_CONCURRENCY_QUOTA_CODE,
  PREFLIGHT_DOCS,
  PreflightFailedError,
  type PreflightClients,
  reservedConcurrency,
} from '../../scripts/platform/preflight.js';

const lambdaMock = mockClient(LambdaClient);
const sesMock = mockClient(SESv2Client);
const cfMock = mockClient(CloudFrontClient);
afterEach(() => {
  lambdaMock.reset();
  sesMock.reset();
  cfMock.reset();
});
const REGION = 'eu-west-1';
const credentials = { accessKeyId: 'a', secretAccessKey: 'b' };
const awsError = (name: string, message = name) => Object.assign(new Error(message), { name, $metadata: {} });
const sesRegions: string[] = [];
const clients = (): PreflightClients => ({
  lambda: new LambdaClient({ region: REGION, credentials }),
  ses: (region) => {
    sesRegions.push(region);
    return new SESv2Client({ region, credentials });
  },
  cloudfront: new CloudFrontClient({ region: 'us-east-1', credentials }),
});
const settings = (limit: number, unreserved = limit) => ({ AccountLimit: { ConcurrentExecutions: limit, UnreservedConcurrentExecutions: unreserved } });
const PROD_NEED = { reserved: 0, apiBurst: 100, production: true };
const PREVIEW_NEED = { reserved: 0, apiBurst: 10, production: false };
const DOMAIN_EMAIL = { fromEmail: 'no-reply@vigia.example', verifiedDomain: 'vigia.example', sesRegion: 'us-east-1' };
const ADDRESS_EMAIL = { fromEmail: 'no-reply@vigia.example' };
const productionAccount = { ProductionAccessEnabled: true, SendingEnabled: true, SendQuota: { Max24HourSend: 50000, MaxSendRate: 14, SentLast24Hours: 12 } };
/** Tests that synthesize a stage's templates (a few seconds on a shared machine). */
const SYNTH_TIMEOUT = 60_000;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('Lambda concurrency quota (GetAccountSettings)', () => {
  it('passes when the quota holds the stage: the default 1,000', async () => {
    lambdaMock.on(GetAccountSettingsCommand).resolves(settings(1000));
    const r = await checkLambdaConcurrency(clients().lambda, REGION, PROD_NEED);
    expect(r).toMatchObject({ check: 'lambda-concurrency', status: 'ok' });
    expect(r.message).toBe('Lambda in eu-west-1: account concurrency 1000, unreserved 1000 (the stage needs 100)');
    expect(lambdaMock.commandCalls(GetAccountSettingsCommand).map((c) => c.args[0].input)).toEqual([{}]);
  });

  it('a fresh account (quota 10) fails a production stage with the Service Quotas request and document', async () => {
    lambdaMock.on(GetAccountSettingsCommand).resolves(settings(10));
    const r = await checkLambdaConcurrency(clients().lambda, REGION, PROD_NEED);
    expect(r.status).toBe('fail');
    expect(r.docs).toBe(PREFLIGHT_DOCS.lambdaQuotas);
    expect(r.message).toMatch(/account concurrency 10, unreserved 10; the stage needs at least 100 \(0 reserved \+ max\(100 unreserved, API burst 100\)\)/);
    expect(r.message).toContain(`aws service-quotas request-service-quota-increase --region ${REGION} --service-code lambda --quota-code ${LAMBDA_CONCURRENCY_QUOTA_CODE} --desired-value 1000`);
    expect(r.message).toContain(PREFLIGHT_DOCS.quotaIncrease);
  });

  it('the same quota only warns on a preview (no real users)', async () => {
    lambdaMock.on(GetAccountSettingsCommand).resolves(settings(10));
    expect((await checkLambdaConcurrency(clients().lambda, REGION, PREVIEW_NEED)).status).toBe('warn');
  });

  it('reserved concurrency that would leave less than 100 unreserved fails (CloudFormation would refuse the function)', async () => {
    lambdaMock.on(GetAccountSettingsCommand).resolves(settings(1000, 140));
    const r = await checkLambdaConcurrency(clients().lambda, REGION, { ...PROD_NEED, reserved: 50 });
    expect(r).toMatchObject({ status: 'fail', docs: PREFLIGHT_DOCS.lambdaReserved });
    expect(r.message).toMatch(/reserve 50, which would leave less than the 100 Lambda keeps unreserved/);
    lambdaMock.on(GetAccountSettingsCommand).resolves(settings(1000, 150));
    expect((await checkLambdaConcurrency(clients().lambda, REGION, { ...PROD_NEED, reserved: 50 })).status).toBe('ok');
  });

  it('an API error is a failure naming the action and --skip-preflight, not a pass', async () => {
    lambdaMock.on(GetAccountSettingsCommand).rejects(awsError('AccessDeniedException', 'not authorized to perform: lambda:GetAccountSettings'));
    const r = await checkLambdaConcurrency(clients().lambda, REGION, PROD_NEED);
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/AccessDeniedException: not authorized.*need lambda:GetAccountSettings.*--skip-preflight/);
    lambdaMock.on(GetAccountSettingsCommand).resolves({});
    expect((await checkLambdaConcurrency(clients().lambda, REGION, PROD_NEED)).status).toBe('fail');
  });

  it("the stage's need: its templates' reserved concurrency (none today) and its API burst", () => {
    expect(reservedConcurrency([{ Resources: { F: { Type: 'AWS::Lambda::Function', Properties: { ReservedConcurrentExecutions: 5 } }, G: { Type: 'AWS::Lambda::Function', Properties: {} }, Q: { Type: 'AWS::SQS::Queue', Properties: { ReservedConcurrentExecutions: 7 } } } }, { Resources: { H: { Type: 'AWS::Lambda::Function', Properties: { ReservedConcurrentExecutions: 3 } } } }])).toBe(8);
    const templates = synthStage({ stage: 'pr-42' }).stacks.map((s) => s.template);
    expect(templates.some((t) => Object.values(t.Resources ?? {}).some((r) => r.Type === 'AWS::Lambda::Function'))).toBe(true);
    expect(concurrencyNeed(stageConfig('pr-42'), templates)).toEqual({ reserved: 0, apiBurst: 10, production: false });
    expect(concurrencyNeed(stageConfig('prod'), [])).toEqual({ reserved: 0, apiBurst: 100, production: true });
  }, SYNTH_TIMEOUT);
});

describe('SES for Cognito e-mail (SESv2 GetAccount, GetEmailIdentity)', () => {
  it('stages without an SES identity (dev, previews) are skipped without a call', async () => {
    expect(await checkSes(clients().ses, REGION, undefined)).toMatchObject({ check: 'ses', status: 'skip' });
    expect(sesMock.calls()).toHaveLength(0);
  });

  it('passes with production access and the domain identity verified, in the identity region', async () => {
    sesRegions.length = 0;
    sesMock.on(GetAccountCommand).resolves(productionAccount);
    sesMock.on(GetEmailIdentityCommand, { EmailIdentity: 'vigia.example' }).resolves({ IdentityType: 'DOMAIN', VerifiedForSendingStatus: true });
    const r = await checkSes(clients().ses, REGION, DOMAIN_EMAIL);
    expect(r).toMatchObject({ status: 'ok', message: 'SES in us-east-1: production access, vigia.example verified, quota 50000 per 24 h (12 sent), 14/s' });
    expect(sesRegions).toEqual(['us-east-1']);
    expect(sesMock.commandCalls(GetEmailIdentityCommand).map((c) => c.args[0].input)).toEqual([{ EmailIdentity: 'vigia.example' }]);
  });

  it('the sandbox fails with the production access request', async () => {
    sesMock.on(GetAccountCommand).resolves({ ProductionAccessEnabled: false, SendingEnabled: true, SendQuota: { Max24HourSend: 200, MaxSendRate: 1, SentLast24Hours: 0 } });
    const r = await checkSes(clients().ses, REGION, ADDRESS_EMAIL);
    expect(r).toMatchObject({ status: 'fail', docs: PREFLIGHT_DOCS.sesProduction });
    expect(r.message).toMatch(new RegExp(`SES in ${REGION} is in the sandbox \\(quota 200 per 24 h\\): mail reaches only verified addresses.*Request production access.*${escape(PREFLIGHT_DOCS.sesProduction)}`));
    expect(sesMock.commandCalls(GetEmailIdentityCommand)).toHaveLength(0);
  });

  it('paused sending fails', async () => {
    sesMock.on(GetAccountCommand).resolves({ ...productionAccount, SendingEnabled: false, EnforcementStatus: 'SHUTDOWN' });
    expect((await checkSes(clients().ses, REGION, ADDRESS_EMAIL)).message).toMatch(/sending is paused .*EnforcementStatus SHUTDOWN/);
  });

  it('only the domain verified but no sesVerifiedDomain: fails telling to pass it (point 9)', async () => {
    sesMock.on(GetAccountCommand).resolves(productionAccount);
    sesMock.on(GetEmailIdentityCommand, { EmailIdentity: 'no-reply@vigia.example' }).rejects(awsError('NotFoundException', 'Email identity no-reply@vigia.example does not exist.'));
    sesMock.on(GetEmailIdentityCommand, { EmailIdentity: 'vigia.example' }).resolves({ IdentityType: 'DOMAIN', VerifiedForSendingStatus: true });
    const r = await checkSes(clients().ses, REGION, ADDRESS_EMAIL);
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/verified the domain vigia\.example, not the address no-reply@vigia\.example.*--context sesVerifiedDomain=vigia\.example/);
  });

  it('an identity that is missing or still pending fails with how to create and verify it', async () => {
    sesMock.on(GetAccountCommand).resolves(productionAccount);
    sesMock.on(GetEmailIdentityCommand).rejects(awsError('NotFoundException'));
    const missing = await checkSes(clients().ses, REGION, DOMAIN_EMAIL);
    expect(missing).toMatchObject({ status: 'fail', docs: PREFLIGHT_DOCS.sesIdentities });
    expect(missing.message).toMatch(/vigia\.example is not an SES identity in us-east-1.*aws sesv2 create-email-identity --region us-east-1 --email-identity vigia\.example/);
    sesMock.on(GetEmailIdentityCommand).resolves({ IdentityType: 'DOMAIN', VerifiedForSendingStatus: false, VerificationStatus: 'PENDING' });
    expect((await checkSes(clients().ses, REGION, DOMAIN_EMAIL)).message).toMatch(/vigia\.example is not verified for sending yet/);
  });

  it('API errors are failures naming the action', async () => {
    sesMock.on(GetAccountCommand).rejects(awsError('AccessDeniedException', 'not authorized to perform: ses:GetAccount'));
    expect((await checkSes(clients().ses, REGION, ADDRESS_EMAIL)).message).toMatch(/could not read the SES account in eu-west-1 \(AccessDeniedException.*need ses:GetAccount/);
    sesMock.on(GetAccountCommand).resolves(productionAccount);
    sesMock.on(GetEmailIdentityCommand).rejects(awsError('TooManyRequestsException', 'Rate exceeded'));
    const r = await checkSes(clients().ses, REGION, ADDRESS_EMAIL);
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/TooManyRequestsException: Rate exceeded.*ses:GetEmailIdentity/);
  });
});

describe('CloudFront account verification (ListDistributions)', () => {
  it("the stage's Hosting stack exists: passes without a call", async () => {
    expect((await checkCloudFront(clients().cloudfront, true)).status).toBe('ok');
    expect(cfMock.calls()).toHaveLength(0);
  });

  it('an account holding a distribution passes (it was verified)', async () => {
    cfMock.on(ListDistributionsCommand).resolves({ DistributionList: { Marker: '', MaxItems: 1, IsTruncated: true, Quantity: 1, Items: [] } });
    expect((await checkCloudFront(clients().cloudfront, false)).status).toBe('ok');
    expect(cfMock.commandCalls(ListDistributionsCommand).map((c) => c.args[0].input)).toEqual([{ MaxItems: 1 }]);
  });

  it('an account without distributions warns with the error to expect and the AWS Support remedy', async () => {
    cfMock.on(ListDistributionsCommand).resolves({ DistributionList: { Marker: '', MaxItems: 1, IsTruncated: false, Quantity: 0 } });
    const r = await checkCloudFront(clients().cloudfront, false);
    expect(r).toMatchObject({ status: 'warn', docs: PREFLIGHT_DOCS.support });
    expect(r.message).toMatch(/"Your account must be verified before you can add new CloudFront resources", open an AWS Support case/);
  });

  it('an API error is a failure naming the action', async () => {
    cfMock.on(ListDistributionsCommand).rejects(awsError('AccessDenied', 'User is not authorized to perform: cloudfront:ListDistributions'));
    expect((await checkCloudFront(clients().cloudfront, false)).message).toMatch(/AccessDenied: .*need cloudfront:ListDistributions/);
  });
});

describe('the whole preflight', () => {
  it('a fresh account stops a prod deploy with every failure and what to do; nothing is skipped after the first', async () => {
    lambdaMock.on(GetAccountSettingsCommand).resolves(settings(10));
    sesMock.on(GetAccountCommand).resolves({ ProductionAccessEnabled: false, SendingEnabled: true });
    cfMock.on(ListDistributionsCommand).resolves({ DistributionList: { Marker: '', MaxItems: 1, IsTruncated: false, Quantity: 0 } });
    const config = stageConfig('prod', { email: ADDRESS_EMAIL });
    const run = freshAccountPreflight({ region: REGION, config, need: concurrencyNeed(config, []), hostingExists: false, clients: clients() });
    await expect(run).rejects.toThrow(PreflightFailedError);
    const err = (await run.catch((e: unknown) => e)) as PreflightFailedError;
    expect(err.results.map((r) => [r.check, r.status])).toEqual([['lambda-concurrency', 'fail'], ['ses', 'fail'], ['cloudfront', 'warn']]);
    expect(err.message).toMatch(/\[lambda-concurrency\] .*quota-code L-B99A9384[\s\S]*\[ses\] .*sandbox[\s\S]*--skip-preflight/);
  });

  it('a verified account passes a preview (no SES call) and the deploy logs every check', async () => {
    lambdaMock.on(GetAccountSettingsCommand).resolves(settings(1000));
    cfMock.on(ListDistributionsCommand).resolves({ DistributionList: { Marker: '', MaxItems: 1, IsTruncated: false, Quantity: 1 } });
    const lines: string[] = [];
    const results = await deployPreflight({ stage: 'pr-42', region: REGION, context: ['previewDeployer=github'], skip: false, log: (l) => lines.push(l), clients: clients(), hostingExists: async () => false, apiGatewayRole: async () => 'arn:aws:iam::1:role/R' });
    expect(results.map((r) => r.status)).toEqual(['ok', 'skip', 'ok']);
    expect(sesMock.calls()).toHaveLength(0);
    expect(lines[0]).toBe('API Gateway CloudWatch role: arn:aws:iam::1:role/R');
    expect(lines.slice(1).map((l) => /^preflight (\w+) \[([a-z-]+)\]/.exec(l)?.slice(1).join(' '))).toEqual(['OK lambda-concurrency', 'SKIP ses', 'OK cloudfront']);
  }, SYNTH_TIMEOUT);

  it('deploy context reaches the checks: prod with sesVerifiedDomain asks SES about the domain identity', async () => {
    lambdaMock.on(GetAccountSettingsCommand).resolves(settings(1000));
    sesMock.on(GetAccountCommand).resolves(productionAccount);
    sesMock.on(GetEmailIdentityCommand).resolves({ VerifiedForSendingStatus: true });
    const lines: string[] = [];
    const results = await deployPreflight({ stage: 'prod', region: REGION, context: ['sesFromEmail=no-reply@vigia.example', 'sesVerifiedDomain=vigia.example'], skip: false, log: (l) => lines.push(l), clients: clients(), hostingExists: async () => true, apiGatewayRole: async () => 'arn' });
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(sesMock.commandCalls(GetEmailIdentityCommand).map((c) => c.args[0].input)).toEqual([{ EmailIdentity: 'vigia.example' }]);
    // The stage's templates were synthesized (its reserved concurrency counted), not skipped over an error.
    expect(lines.filter((l) => l.includes('did not synthesize'))).toEqual([]);
  }, SYNTH_TIMEOUT);

  it('--skip-preflight makes no call at all and says so', async () => {
    const lines: string[] = [];
    let apiGateway = 0;
    expect(await deployPreflight({ stage: 'prod', region: REGION, context: [], skip: true, log: (l) => lines.push(l), clients: clients(), apiGatewayRole: async () => String(++apiGateway) })).toEqual([]);
    expect([lambdaMock.calls().length, sesMock.calls().length, cfMock.calls().length, apiGateway]).toEqual([0, 0, 0, 0]);
    expect(lines).toEqual(['preflight skipped (--skip-preflight): API Gateway role, Lambda concurrency, SES and CloudFront not checked']);
  });
});
