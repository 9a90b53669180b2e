/**
 * Redeploying prod or staging over the resources a destroyed stage retained (scripts/platform/retained.ts,
 * issue 29 point 11): detection with aws-sdk-client-mock (DescribeTable, GetQueueUrl, DescribeStackResources
 * by physical id), the adoption plan (`--import-existing-resources` on production stages, a `cdk import` of
 * the dead-letter queue first), and the synthesized production templates meeting CloudFormation's
 * auto-import requirements (static names, Retain-type deletion policy) with the logical id the import maps.
 */
import { CloudFormationClient, DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { deployArgs } from '../../scripts/platform/cdk.js';
import { adoptionPlan, findRetained, NOTIFICATIONS_DLQ_LOGICAL_ID } from '../../scripts/platform/retained.js';
import { ofType, synthProd, synthStaging } from '../support/synth.js';

const cfnMock = mockClient(CloudFormationClient);
const ddbMock = mockClient(DynamoDBClient);
const sqsMock = mockClient(SQSClient);
afterEach(() => {
  cfnMock.reset();
  ddbMock.reset();
  sqsMock.reset();
});

const REGION = 'eu-west-1';
const creds = { accessKeyId: 'a', secretAccessKey: 'b' };
const clients = () => ({
  cfn: new CloudFormationClient({ region: REGION, credentials: creds }),
  ddb: new DynamoDBClient({ region: REGION, credentials: creds }),
  sqs: new SQSClient({ region: REGION, credentials: creds }),
});
const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/vigia-prod-notifications-dlq';
const noStack = (id: string) => Object.assign(new Error(`Stack for ${id} does not exist`), { name: 'ValidationError', $metadata: {} });

describe('findRetained: the stage\u2019s retained resources that belong to no stack', () => {
  it('a destroyed prod: table and queue exist, in no stack → the table auto-imported, the queue cdk-imported', async () => {
    ddbMock.on(DescribeTableCommand).resolves({ Table: { TableName: 'vigia-prod-main', TableStatus: 'ACTIVE' } });
    sqsMock.on(GetQueueUrlCommand).resolves({ QueueUrl: QUEUE_URL });
    cfnMock.on(DescribeStackResourcesCommand, { PhysicalResourceId: 'vigia-prod-main' }).rejects(noStack('vigia-prod-main'));
    cfnMock.on(DescribeStackResourcesCommand, { PhysicalResourceId: QUEUE_URL }).rejects(noStack(QUEUE_URL));
    const orphans = await findRetained(clients(), 'prod', true);
    expect(orphans).toEqual([
      { type: 'AWS::DynamoDB::Table', stackPart: 'Data', name: 'vigia-prod-main', physicalId: 'vigia-prod-main', adoption: 'auto-import' },
      { type: 'AWS::SQS::Queue', stackPart: 'Api', name: 'vigia-prod-notifications-dlq', physicalId: QUEUE_URL, adoption: 'cdk-import' },
    ]);
    expect(ddbMock.commandCalls(DescribeTableCommand).map((c) => c.args[0].input)).toEqual([{ TableName: 'vigia-prod-main' }]);
    expect(sqsMock.commandCalls(GetQueueUrlCommand).map((c) => c.args[0].input)).toEqual([{ QueueName: 'vigia-prod-notifications-dlq' }]);
    expect(cfnMock.commandCalls(DescribeStackResourcesCommand).map((c) => c.args[0].input)).toEqual([{ PhysicalResourceId: 'vigia-prod-main' }, { PhysicalResourceId: QUEUE_URL }]);

    const plan = adoptionPlan('prod', orphans, ['-c', 'createdAt=2026-01-05T10:00:00Z', '-c', 'sesFromEmail=no-reply@vigia.example']);
    expect(plan.importExistingResources).toBe(true);
    expect(plan.imports).toEqual([
      [
        'import', 'Vigia-prod-Api', '-c', 'stage=prod', '-c', 'createdAt=2026-01-05T10:00:00Z', '-c', 'sesFromEmail=no-reply@vigia.example',
        '--resource-mapping-inline', JSON.stringify({ [NOTIFICATIONS_DLQ_LOGICAL_ID]: { QueueUrl: QUEUE_URL } }), '--force', '--no-notices',
      ],
    ]);
    expect(plan.notes).toEqual([
      'retained vigia-prod-main belongs to no stack: the deploy adopts it (CloudFormation auto-import)',
      'retained vigia-prod-notifications-dlq belongs to no stack: cdk import into Vigia-prod-Api first',
    ]);
  });

  it('resources in their stacks, or absent: nothing to import', async () => {
    ddbMock.on(DescribeTableCommand).resolves({ Table: { TableName: 'vigia-staging-main' } });
    sqsMock.on(GetQueueUrlCommand).rejects(Object.assign(new Error('The specified queue does not exist.'), { name: 'QueueDoesNotExist', $metadata: {} }));
    cfnMock.on(DescribeStackResourcesCommand).resolves({ StackResources: [{ StackName: 'Vigia-staging-Data', LogicalResourceId: 'TableCD117FA1', ResourceType: 'AWS::DynamoDB::Table', ResourceStatus: 'UPDATE_COMPLETE', Timestamp: new Date() }] });
    expect(await findRetained(clients(), 'staging', true)).toEqual([]);
    ddbMock.reset();
    ddbMock.on(DescribeTableCommand).rejects(Object.assign(new Error('not found'), { name: 'ResourceNotFoundException', $metadata: {} }));
    expect(await findRetained(clients(), 'staging', true)).toEqual([]);
    const plan = adoptionPlan('staging', [], []);
    expect(plan).toEqual({ importExistingResources: true, imports: [], notes: [] });
  });

  it('a stage on a restored table does not look at the old default table; dev and previews retain nothing', async () => {
    sqsMock.on(GetQueueUrlCommand).rejects(Object.assign(new Error('gone'), { name: 'QueueDoesNotExist', $metadata: {} }));
    expect(await findRetained(clients(), 'prod', false)).toEqual([]);
    expect(ddbMock.calls()).toHaveLength(0);
    expect(await findRetained(clients(), 'pr-42', true)).toEqual([]);
    expect(await findRetained(clients(), 'dev', true)).toEqual([]);
    expect(sqsMock.calls()).toHaveLength(1);
    expect(adoptionPlan('dev', [], []).importExistingResources).toBe(false);
  });

  it('other errors are not taken for "absent"', async () => {
    ddbMock.on(DescribeTableCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException', $metadata: {} }));
    await expect(findRetained(clients(), 'prod', true)).rejects.toThrow(/denied/);
  });
});

describe('cdk deploy over retained resources', () => {
  it('deployArgs passes --import-existing-resources only when asked', () => {
    const base = { stage: 'prod', createdAt: '2026-01-05T10:00:00Z', approve: true, outputsFile: 'cdk.out/outputs-prod.json' };
    expect(deployArgs({ ...base, importExistingResources: true })).toContain('--import-existing-resources');
    expect(deployArgs(base)).not.toContain('--import-existing-resources');
  });

  for (const [stage, synthed] of [['prod', synthProd], ['staging', synthStaging]] as const) {
    // Synthesis takes seconds on a loaded machine.
    it(`${stage}: table and site bucket have static names and a Retain-type deletion policy (auto-import); the queue has the mapped logical id`, { timeout: 120_000 }, () => {
      const s = synthed();
      const [, table] = ofType(s.t.data, 'AWS::DynamoDB::Table')[0]!;
      expect(table.Properties?.TableName).toBe(`vigia-${stage}-main`);
      expect(table.DeletionPolicy).toBe('RetainExceptOnCreate');
      const site = ofType(s.t.hosting, 'AWS::S3::Bucket').find(([id]) => id.startsWith('SiteBucket'))![1];
      expect(site.Properties?.BucketName).toBe(`vigia-${stage}-site-123456789012-eu-west-1`);
      expect(site.DeletionPolicy).toBe('RetainExceptOnCreate');
      const queues = ofType(s.t.api, 'AWS::SQS::Queue').filter(([, q]) => q.Properties?.QueueName === `vigia-${stage}-notifications-dlq`);
      expect(queues.map(([id, q]) => [id, q.DeletionPolicy])).toEqual([[NOTIFICATIONS_DLQ_LOGICAL_ID, 'RetainExceptOnCreate']]);
    });
  }
});
