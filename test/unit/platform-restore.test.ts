/**
 * `npm run platform:restore` (scripts/platform/restore.ts) against the DynamoDB and CloudFormation API
 * shapes, with aws-sdk-client-mock: the exact calls and their order (read the deployed table and its PITR
 * window, restore into a new name, wait, re-apply stream NEW_IMAGE / deletion protection / PITR / TTL / tags,
 * deploy with the new table and stream context), the refusals that change nothing (stage not deployed, time
 * outside the window, PITR off, target taken), how later deploys keep the restored table (`tableContext`),
 * and the Data stack that adopts the restored table with its stream so the notification consumer keeps
 * its event source (issue 29, point 8).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  DescribeContinuousBackupsCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTagsOfResourceCommand,
  RestoreTableToPointInTimeCommand,
  TagResourceCommand,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptedStreamArn } from '../../infra/data-stack.js';
import { addVigiaStacks } from '../../infra/vigia-app.js';
import { StageNotDeployedError } from '../../scripts/platform/aws.js';
import { UsageError } from '../../scripts/platform/cli.js';
import { defaultTargetName, parseRestoreTime, restoreTable, RestoreWindowError, tableContext } from '../../scripts/platform/restore.js';
import { cdkJsonContext, fakeWebDist, PROD_ENV, TEST_SES } from '../support/synth.js';

const cfnMock = mockClient(CloudFormationClient);
const ddbMock = mockClient(DynamoDBClient);
afterEach(() => {
  cfnMock.reset();
  ddbMock.reset();
});

const REGION = 'eu-west-1';
const creds = { accessKeyId: 'a', secretAccessKey: 'b' };
const ARN = (t: string) => `arn:aws:dynamodb:${REGION}:123456789012:table/${t}`;
const STREAM = (t: string) => `${ARN(t)}/stream/2026-11-28T03:00:00.000`;
const SOURCE = 'vigia-prod-main';
const TARGET = 'vigia-prod-main-r1';
const TAGS = [{ Key: 'project', Value: 'vigia' }, { Key: 'stage', Value: 'prod' }, { Key: 'created-at', Value: '2026-01-05T10:00:00Z' }];
const WINDOW = { EarliestRestorableDateTime: new Date('2026-10-25T00:00:00Z'), LatestRestorableDateTime: new Date('2026-11-28T02:55:00Z') };

function dataStack(outputs: Record<string, string> | null): void {
  if (!outputs) {
    cfnMock.on(DescribeStacksCommand).rejects(Object.assign(new Error('Stack with id Vigia-prod-Data does not exist'), { name: 'ValidationError', $metadata: {} }));
    return;
  }
  cfnMock.on(DescribeStacksCommand, { StackName: 'Vigia-prod-Data' }).resolves({
    Stacks: [{ StackName: 'Vigia-prod-Data', StackStatus: 'UPDATE_COMPLETE', CreationTime: new Date(), Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })) }],
  });
}

/** DynamoDB as a restore sees it: the source (PITR on, deletion protection, KMS), the target appearing CREATING then ACTIVE. */
function dynamo(opts: { pitr?: 'ENABLED' | 'DISABLED'; targetExists?: boolean } = {}): void {
  const notFound = () => Object.assign(new Error('Requested resource not found'), { name: 'ResourceNotFoundException', $metadata: {} });
  ddbMock.on(DescribeTableCommand, { TableName: SOURCE }).resolves({
    Table: {
      TableName: SOURCE, TableArn: ARN(SOURCE), TableStatus: 'ACTIVE', DeletionProtectionEnabled: true,
      BillingModeSummary: { BillingMode: 'PAY_PER_REQUEST' },
      SSEDescription: { Status: 'ENABLED', SSEType: 'KMS', KMSMasterKeyArn: 'arn:aws:kms:eu-west-1:123456789012:key/aws-managed' },
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' }, LatestStreamArn: STREAM(SOURCE),
    },
  });
  const target = { TableName: TARGET, TableArn: ARN(TARGET) };
  if (opts.targetExists) ddbMock.on(DescribeTableCommand, { TableName: TARGET }).resolves({ Table: { ...target, TableStatus: 'ACTIVE' } });
  else
    ddbMock
      .on(DescribeTableCommand, { TableName: TARGET })
      .rejectsOnce(notFound()) // the pre-check: the name is free
      .rejectsOnce(notFound()) // just after RestoreTableToPointInTime
      .resolvesOnce({ Table: { ...target, TableStatus: 'CREATING', RestoreSummary: { RestoreInProgress: true, RestoreDateTime: new Date() } } })
      .resolvesOnce({ Table: { ...target, TableStatus: 'ACTIVE', RestoreSummary: { RestoreInProgress: false, RestoreDateTime: new Date() } } })
      .resolvesOnce({ Table: { ...target, TableStatus: 'UPDATING' } })
      .resolves({ Table: { ...target, TableStatus: 'ACTIVE', LatestStreamArn: STREAM(TARGET), StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } } });
  ddbMock.on(DescribeContinuousBackupsCommand).resolves({
    ContinuousBackupsDescription: { ContinuousBackupsStatus: 'ENABLED', PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: opts.pitr ?? 'ENABLED', ...WINDOW } },
  });
  ddbMock.on(ListTagsOfResourceCommand).resolves({ Tags: TAGS });
  ddbMock.on(RestoreTableToPointInTimeCommand).resolves({});
  ddbMock.on(UpdateTableCommand).resolves({});
  ddbMock.on(UpdateContinuousBackupsCommand).resolves({});
  ddbMock.on(UpdateTimeToLiveCommand).resolves({});
  ddbMock.on(TagResourceCommand).resolves({});
}

const WRITES = ['RestoreTableToPointInTimeCommand', 'UpdateTableCommand', 'UpdateContinuousBackupsCommand', 'UpdateTimeToLiveCommand', 'TagResourceCommand'];

function run(to: string, extra: { deployed?: string[][]; target?: string } = {}) {
  const deployed = extra.deployed ?? [];
  const lines: string[] = [];
  return {
    lines,
    result: restoreTable(
      { stage: 'prod', region: REGION, to: parseRestoreTime(to), target: extra.target ?? TARGET, deployArgs: ['--approve', '--context', 'sesFromEmail=no-reply@vigia.example'] },
      {
        cfn: new CloudFormationClient({ region: REGION, credentials: creds }),
        ddb: new DynamoDBClient({ region: REGION, credentials: creds }),
        deploy: async (args) => void deployed.push(args),
        log: (l) => lines.push(l),
        sleep: async () => undefined,
      },
    ),
  };
}

describe('platform:restore', () => {
  it('restores into a new table, re-applies what a restore does not carry, then deploys onto it — exact calls, in order', async () => {
    dataStack({ TableName: SOURCE, TableStreamArn: STREAM(SOURCE) });
    dynamo();
    const deployed: string[][] = [];
    const { result, lines } = run('2026-11-20T08:00:00Z', { deployed });
    await expect(result).resolves.toEqual({ stage: 'prod', source: SOURCE, target: TARGET, restoredTo: '2026-11-20T08:00:00.000Z', streamArn: STREAM(TARGET) });

    expect(cfnMock.commandCalls(DescribeStacksCommand).map((c) => c.args[0].input)).toEqual([{ StackName: 'Vigia-prod-Data' }]);
    const calls = ddbMock.calls().map((c) => [c.args[0].constructor.name.replace(/Command$/, ''), c.args[0].input as Record<string, unknown>] as const);
    expect(calls.map(([op, input]) => `${op} ${String(input.TableName ?? input.TargetTableName ?? input.ResourceArn)}`)).toEqual([
      `DescribeTable ${SOURCE}`,
      `DescribeContinuousBackups ${SOURCE}`,
      `DescribeTable ${TARGET}`,
      `ListTagsOfResource ${ARN(SOURCE)}`,
      `RestoreTableToPointInTime ${TARGET}`,
      `DescribeTable ${TARGET}`, // not visible yet
      `DescribeTable ${TARGET}`, // CREATING, restore in progress
      `DescribeTable ${TARGET}`, // ACTIVE
      `UpdateTable ${TARGET}`, // stream
      `DescribeTable ${TARGET}`, // UPDATING
      `DescribeTable ${TARGET}`, // ACTIVE, LatestStreamArn
      `UpdateTable ${TARGET}`, // deletion protection
      `DescribeTable ${TARGET}`,
      `UpdateContinuousBackups ${TARGET}`,
      `UpdateTimeToLive ${TARGET}`,
      `TagResource ${ARN(TARGET)}`,
    ]);
    const input = (op: string, n = 0) => calls.filter(([o]) => o === op)[n]![1];
    expect(input('RestoreTableToPointInTime')).toEqual({
      SourceTableName: SOURCE, TargetTableName: TARGET, RestoreDateTime: new Date('2026-11-20T08:00:00Z'), BillingModeOverride: 'PAY_PER_REQUEST',
      SSESpecificationOverride: { Enabled: true, SSEType: 'KMS', KMSMasterKeyId: 'arn:aws:kms:eu-west-1:123456789012:key/aws-managed' },
    });
    expect(input('UpdateTable', 0)).toEqual({ TableName: TARGET, StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } });
    expect(input('UpdateTable', 1)).toEqual({ TableName: TARGET, DeletionProtectionEnabled: true });
    expect(input('UpdateContinuousBackups')).toEqual({ TableName: TARGET, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } });
    expect(input('UpdateTimeToLive')).toEqual({ TableName: TARGET, TimeToLiveSpecification: { Enabled: true, AttributeName: 'expiresAt' } });
    expect(input('TagResource')).toEqual({ ResourceArn: ARN(TARGET), Tags: TAGS });

    expect(deployed).toEqual([
      ['--stage', 'prod', '--context', `tableName=${TARGET}`, '--context', `tableStreamArn=${STREAM(TARGET)}`, '--approve', '--context', 'sesFromEmail=no-reply@vigia.example'],
    ]);
    expect(lines).toEqual(expect.arrayContaining([`stage prod uses table ${SOURCE}`, `restoring ${SOURCE} as of 2026-11-20T08:00:00.000Z into ${TARGET}`, `${TARGET} is ACTIVE`, 'point-in-time recovery on']));
  });

  it('after an earlier restore, the source is the table the deployed outputs name', async () => {
    dataStack({ TableName: 'vigia-prod-main-r0' });
    ddbMock.on(DescribeTableCommand).rejects(Object.assign(new Error('not found'), { name: 'ResourceNotFoundException', $metadata: {} }));
    await expect(run('2026-11-20T08:00:00Z').result).rejects.toThrow(/table vigia-prod-main-r0 of stage prod does not exist/);
    expect(ddbMock.commandCalls(DescribeTableCommand)[0]!.args[0].input).toEqual({ TableName: 'vigia-prod-main-r0' });
  });

  it('refusals change nothing: stage not deployed, time outside the window, PITR off, target taken', async () => {
    dataStack(null);
    dynamo();
    await expect(run('2026-11-20T08:00:00Z').result).rejects.toThrow(StageNotDeployedError);

    cfnMock.reset();
    dataStack({ TableName: SOURCE });
    for (const to of ['2026-10-24T23:59:59Z', '2026-11-28T03:00:00Z', '2027-01-01T00:00:00Z']) {
      const failure = run(to).result;
      await expect(failure).rejects.toThrow(RestoreWindowError);
      await expect(failure).rejects.toThrow(/outside the point-in-time window of vigia-prod-main: 2026-10-25T00:00:00.000Z … 2026-11-28T02:55:00.000Z \(nothing was changed\)/);
    }
    ddbMock.reset();
    dynamo({ pitr: 'DISABLED' });
    await expect(run('2026-11-20T08:00:00Z').result).rejects.toThrow(/has no point-in-time recovery/);
    ddbMock.reset();
    dynamo({ targetExists: true });
    await expect(run('2026-11-20T08:00:00Z').result).rejects.toThrow(/table vigia-prod-main-r1 exists already/);
    expect(ddbMock.calls().map((c) => c.args[0].constructor.name).filter((n) => WRITES.includes(n))).toEqual([]);
  });

  it('--to is ISO-8601 with a zone; the default target name carries the run time', () => {
    expect(parseRestoreTime('2026-11-20T08:00:00+01:00').toISOString()).toBe('2026-11-20T07:00:00.000Z');
    for (const bad of ['2026-11-20', '2026-11-20T08:00:00', 'yesterday', '2026-13-40T08:00:00Z']) expect(() => parseRestoreTime(bad), bad).toThrow(UsageError);
    expect(defaultTargetName('prod', new Date('2026-11-28T03:04:05.678Z'))).toBe('vigia-prod-main-r20261128030405');
  });
});

describe('later deploys keep the restored table (platform:deploy → tableContext)', () => {
  const clients = () => ({ cfn: new CloudFormationClient({ region: REGION, credentials: creds }), ddb: new DynamoDBClient({ region: REGION, credentials: creds }) });

  it('without --context tableName: the Data stack\u2019s outputs name the restored table and its stream', async () => {
    dataStack({ TableName: TARGET, TableStreamArn: STREAM(TARGET) });
    await expect(tableContext(clients(), 'prod', ['sesFromEmail=x@y.z'])).resolves.toEqual({ args: ['-c', `tableName=${TARGET}`, '-c', `tableStreamArn=${STREAM(TARGET)}`], tableName: TARGET });
    expect(ddbMock.calls()).toHaveLength(0);
  });

  it('the default table, a first deploy, or an explicit stream: nothing added', async () => {
    dataStack({ TableName: SOURCE, TableStreamArn: STREAM(SOURCE) });
    await expect(tableContext(clients(), 'prod', [])).resolves.toEqual({ args: [], tableName: SOURCE });
    await expect(tableContext(clients(), 'prod', [`tableName=${TARGET}`, `tableStreamArn=${STREAM(TARGET)}`])).resolves.toEqual({ args: [], tableName: TARGET });
    cfnMock.reset();
    dataStack(null);
    await expect(tableContext(clients(), 'prod', [])).resolves.toEqual({ args: [], tableName: SOURCE });
  });

  it('an explicit tableName without its stream (the old runbook): the stream from DescribeTable', async () => {
    dataStack({ TableName: SOURCE, TableStreamArn: STREAM(SOURCE) });
    ddbMock.on(DescribeTableCommand, { TableName: TARGET }).resolves({ Table: { TableName: TARGET, LatestStreamArn: STREAM(TARGET) } });
    await expect(tableContext(clients(), 'prod', [`tableName=${TARGET}`])).resolves.toEqual({ args: ['-c', `tableStreamArn=${STREAM(TARGET)}`], tableName: TARGET });
  });
});

describe('the Data stack adopting a restored table keeps the notification consumer\u2019s stream', () => {
  function synthAdopted(context: Record<string, string>) {
    const app = new App({
      outdir: mkdtempSync(path.join(tmpdir(), 'vigia-cdk-out-')),
      builtinCloudFormationValidation: false,
      context: { ...cdkJsonContext(), stage: 'prod', 'aws:cdk:bundling-stacks': [], ...context },
    });
    const s = addVigiaStacks(app, { stage: 'prod', env: PROD_ENV, webDistDir: fakeWebDist(), overrides: { email: TEST_SES, alarmEmail: 'soc@example.com', tableName: TARGET } });
    app.synth();
    return { api: Template.fromStack(s.api), data: Template.fromStack(s.data) };
  }

  it('with tableStreamArn: the consumer\u2019s event source mapping reads the new stream; the Data stack outputs it', { timeout: 120_000 }, () => {
    const { api, data } = synthAdopted({ tableStreamArn: STREAM(TARGET) });
    const mappings = Object.values(api.findResources('AWS::Lambda::EventSourceMapping')) as Array<{ Properties: { EventSourceArn: unknown } }>;
    expect(mappings.map((m) => m.Properties.EventSourceArn)).toEqual([STREAM(TARGET)]);
    expect(data.toJSON().Outputs).toMatchObject({ TableName: { Value: TARGET }, TableStreamArn: { Value: STREAM(TARGET) } });
  });

  it('a stream ARN of another table, or not an ARN, fails the synth', () => {
    expect(() => adoptedStreamArn(STREAM(SOURCE), TARGET)).toThrow(/is the stream of table vigia-prod-main, not of vigia-prod-main-r1/);
    expect(() => adoptedStreamArn('nope', TARGET)).toThrow(/Invalid tableStreamArn/);
    expect(adoptedStreamArn('', TARGET)).toBeUndefined();
  });
});
