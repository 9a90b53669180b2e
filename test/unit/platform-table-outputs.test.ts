/**
 * Every operator script given `--stage` works on the table the DEPLOYED stage uses — its Data stack's
 * `TableName` output (DescribeStacks) — not on `vigia-<stage>-main`: after `platform:restore` the stage runs
 * on `vigia-prod-main-r1`, and the deploy workflow's smoke seeding (create-tenant, invite-user,
 * grant-collector with `--stage`) and the data scripts must follow (issue 29, point 8).
 *
 * Each script's `main` runs in-process against aws-sdk-client-mock'ed SDK clients: CloudFormation answers
 * the stage's stacks, DynamoDB (the data layer's document client) refuses every call (so nothing runs past the first table access), and the
 * test reads which table that first call named.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main as createTenant } from '../../scripts/platform/create-tenant.js';
import { main as grantCollector } from '../../scripts/platform/grant-collector.js';
import { main as inviteUser } from '../../scripts/platform/invite-user.js';
import { main as rebuildAggregates } from '../../scripts/platform/rebuild-aggregates.js';
import { main as upgradeData } from '../../scripts/platform/upgrade-data.js';
import { main as writeConfig } from '../../scripts/platform/write-config.js';
import { stageTable, StageNotDeployedError } from '../../scripts/platform/aws.js';

const cfn = mockClient(CloudFormationClient);
// The data layer talks through lib-dynamodb's document client (lambdas/data/table/sdk-client.ts).
const ddb = mockClient(DynamoDBDocumentClient);
const idp = mockClient(CognitoIdentityProviderClient);
const REGION = 'eu-west-1';
const RESTORED = 'vigia-prod-main-r1';
const refused = Object.assign(new Error('refused by the test'), { name: 'ValidationException', $metadata: { httpStatusCode: 400 } });

function deployedStage(tableName = RESTORED): void {
  const stack = (part: string, outputs: Record<string, string>) => ({
    Stacks: [{ StackName: `Vigia-prod-${part}`, StackStatus: 'UPDATE_COMPLETE' as const, CreationTime: new Date(), Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })) }],
  });
  cfn.on(DescribeStacksCommand, { StackName: 'Vigia-prod-Data' }).resolves(stack('Data', { TableName: tableName }));
  cfn.on(DescribeStacksCommand, { StackName: 'Vigia-prod-Auth' }).resolves(
    stack('Auth', { Region: REGION, UserPoolId: 'eu-west-1_AbC', UserPoolClientId: 'client123', IdentityPoolId: 'eu-west-1:00000000-0000-0000-0000-000000000000' }),
  );
  cfn.on(DescribeStacksCommand, { StackName: 'Vigia-prod-Hosting' }).resolves(stack('Hosting', { SiteUrl: 'https://d1.cloudfront.net' }));
  cfn.on(DescribeStacksCommand, { StackName: 'Vigia-prod-Api' }).resolves(stack('Api', { ApiUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/' }));
}

/** The table named by the first DynamoDB call (GetItem/Query/Scan: TableName; transactions: their first item's). */
function firstTable(): string | undefined {
  const input = ddb.calls()[0]?.args[0].input as { TableName?: string; TransactItems?: Array<Record<string, { TableName?: string }>> } | undefined;
  return input?.TableName ?? Object.values(input?.TransactItems?.[0] ?? {})[0]?.TableName;
}

beforeEach(() => {
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  ddb.onAnyCommand().rejects(refused);
});
afterEach(() => {
  cfn.reset();
  ddb.reset();
  idp.reset();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('operator scripts take the table from the stage\u2019s deployed outputs', () => {
  const scripts: Array<[string, (argv: string[]) => Promise<unknown>, string[]]> = [
    ['create-tenant', createTenant, ['--tenant', 'initech', '--name', 'Initech']],
    ['invite-user', inviteUser, ['--tenant', 'acme', '--email', 'ana@acme.example']],
    ['grant-collector', grantCollector, ['--tenant', 'acme', '--role-arn', 'arn:aws:iam::123456789012:role/collector']],
    ['upgrade-data', upgradeData, []],
    ['rebuild-aggregates', rebuildAggregates, ['--tenant', 'acme']],
  ];
  for (const [name, main, args] of scripts) {
    it(`${name} --stage prod works on ${RESTORED}, the Data stack\u2019s TableName`, async () => {
      deployedStage();
      await expect(main(['--stage', 'prod', '--region', REGION, ...args])).rejects.toThrow(/refused by the test/);
      expect(cfn.commandCalls(DescribeStacksCommand).map((c) => c.args[0].input.StackName)).toContain('Vigia-prod-Data');
      expect(ddb.calls().length).toBeGreaterThan(0);
      expect(firstTable()).toBe(RESTORED);
    });
  }

  it('--table still wins (local stack), without asking CloudFormation', async () => {
    await expect(upgradeData(['--table', 'vigia-local-main', '--region', REGION])).rejects.toThrow(/refused by the test/);
    expect(cfn.calls()).toHaveLength(0);
    expect(firstTable()).toBe('vigia-local-main');
  });

  it('a stage that is not deployed is a clear error before any table access', async () => {
    cfn.on(DescribeStacksCommand).rejects(Object.assign(new Error('Stack with id Vigia-nope-Data does not exist'), { name: 'ValidationError', $metadata: {} }));
    await expect(upgradeData(['--stage', 'nope', '--region', REGION])).rejects.toThrow(StageNotDeployedError);
    await expect(stageTable(new CloudFormationClient({ region: REGION }), 'nope', REGION)).rejects.toThrow(/Vigia-nope-Data not found in eu-west-1: deploy the stage first/);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('write-config --github-output gives the workflow the deployed table_name', async () => {
    deployedStage();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'vigia-gh-out-')), 'out');
    vi.stubEnv('GITHUB_OUTPUT', file);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await writeConfig(['--stage', 'prod', '--region', REGION, '--out', '-', '--github-output']);
    expect(readFileSync(file, 'utf8')).toContain(`table_name=${RESTORED}\n`);
  });

  it('stageTable: owned when the output is the default name, the stream ARN when the output has one', async () => {
    deployedStage('vigia-prod-main');
    await expect(stageTable(new CloudFormationClient({ region: REGION }), 'prod', REGION)).resolves.toEqual({ tableName: 'vigia-prod-main', owned: true });
  });
});
