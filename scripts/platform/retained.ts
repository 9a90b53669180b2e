/**
 * Redeploying a production stage over its retained resources (docs/platform.md#redeploying-over-retained-resources).
 *
 * prod and staging keep their table, site bucket and notification dead-letter queue when a stack is deleted
 * (`RETAIN_ON_UPDATE_OR_DELETE`, docs/platform.md#retained-resources), under fixed physical names:
 * `vigia-<stage>-main`, `vigia-<stage>-site-<account>-<region>`, `vigia-<stage>-notifications-dlq`. A later
 * deploy of the same stage would fail on "already exists". `platform:deploy` therefore ADOPTS them, keeping
 * the data and the failed notification records:
 *
 *  - table and site bucket: `cdk deploy --import-existing-resources` (CloudFormation's auto-import of a named
 *    resource with a `Retain`/`RetainExceptOnCreate` deletion policy that belongs to no stack, in the same
 *    change set that creates the rest; https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/import-resources-automatically.html).
 *    Always on for production-profile stages: for resources that exist in their stack, or do not exist at
 *    all, the flag changes nothing.
 *  - the dead-letter queue: auto-import cannot take it (an SQS queue's primary identifier is its read-only
 *    `QueueUrl`, which the template cannot give; same page: "Primary IDs with read only properties aren't
 *    supported"), so a queue of the stage's name that is in no stack is imported first with
 *    `cdk import Vigia-<stage>-Api --resource-mapping-inline {"<logical id>":{"QueueUrl":…}}`
 *    (https://docs.aws.amazon.com/cdk/v2/guide/ref-cli-cmd-import.html), then the normal deploy follows.
 *
 * "In no stack" is CloudFormation's `DescribeStackResources` by physical id (a `ValidationError` "Stack for
 * … does not exist" when no stack holds it). Dev and preview stages retain nothing, so nothing is checked.
 */
import { DescribeStackResourcesCommand, type DescribeStackResourcesCommandOutput } from '@aws-sdk/client-cloudformation';
import { DescribeTableCommand, type DescribeTableCommandOutput } from '@aws-sdk/client-dynamodb';
import { GetQueueUrlCommand, type GetQueueUrlCommandOutput } from '@aws-sdk/client-sqs';
import { notificationsDlqName } from '../../infra/notifications.js';
import { stackName, stageProfile } from '../../infra/stage-config.js';
import { stageTableName } from './aws.js';

/** Logical id of the notification dead-letter queue in `Vigia-<stage>-Api` (test/unit/platform-retained.test.ts pins it to the synthesized template). */
export const NOTIFICATIONS_DLQ_LOGICAL_ID = 'NotificationDeliveryDlq1861204B';

/** The IAM actions of {@link findRetained} (read-only). */
export const RETAINED_CHECK_ACTIONS = ['dynamodb:DescribeTable', 'sqs:GetQueueUrl', 'cloudformation:DescribeStackResources'] as const;

/** A retained resource of the stage's name that belongs to no stack. */
export interface OrphanedResource {
  type: 'AWS::DynamoDB::Table' | 'AWS::SQS::Queue';
  /** The stack part whose template declares it (`Data`, `Api`). */
  stackPart: 'Data' | 'Api';
  /** Physical name. */
  name: string;
  /** CloudFormation's physical id (table name; queue URL). */
  physicalId: string;
  /** How the deploy adopts it. */
  adoption: 'auto-import' | 'cdk-import';
}

/** The clients {@link findRetained} uses (real SDK clients or aws-sdk-client-mock'ed ones). */
export interface RetainedClients {
  cfn: { send(c: DescribeStackResourcesCommand): Promise<DescribeStackResourcesCommandOutput> };
  ddb: { send(c: DescribeTableCommand): Promise<DescribeTableCommandOutput> };
  sqs: { send(c: GetQueueUrlCommand): Promise<GetQueueUrlCommandOutput> };
}

const named = (e: unknown, ...names: string[]) => names.includes((e as { name?: string }).name ?? '');

/** Whether a physical resource belongs to a CloudFormation stack (any stack of the account and region). */
export async function inAnyStack(cfn: RetainedClients['cfn'], physicalId: string): Promise<boolean> {
  try {
    const r = await cfn.send(new DescribeStackResourcesCommand({ PhysicalResourceId: physicalId }));
    return (r.StackResources ?? []).length > 0;
  } catch (e) {
    if (named(e, 'ValidationError') && /does not exist/.test((e as Error).message)) return false;
    throw e;
  }
}

/**
 * The stage's retained table and dead-letter queue that exist but belong to no stack (production-profile
 * stages only; `[]` otherwise). The table is checked only when the deploy makes the Data stack own
 * `vigia-<stage>-main` (`ownsDefaultTable`; not while the stage uses a restored table). The site bucket is
 * not looked up: `--import-existing-resources` adopts it whenever it is left over.
 * @throws the SDK's errors other than "not found"
 */
export async function findRetained(c: RetainedClients, stage: string, ownsDefaultTable: boolean): Promise<OrphanedResource[]> {
  if (stageProfile(stage) !== 'production') return [];
  const found: OrphanedResource[] = [];
  if (ownsDefaultTable) {
    const table = stageTableName(stage);
    try {
      await c.ddb.send(new DescribeTableCommand({ TableName: table }));
      if (!(await inAnyStack(c.cfn, table))) found.push({ type: 'AWS::DynamoDB::Table', stackPart: 'Data', name: table, physicalId: table, adoption: 'auto-import' });
    } catch (e) {
      if (!named(e, 'ResourceNotFoundException')) throw e;
    }
  }
  const queue = notificationsDlqName(stage);
  try {
    const { QueueUrl } = await c.sqs.send(new GetQueueUrlCommand({ QueueName: queue }));
    if (QueueUrl && !(await inAnyStack(c.cfn, QueueUrl))) found.push({ type: 'AWS::SQS::Queue', stackPart: 'Api', name: queue, physicalId: QueueUrl, adoption: 'cdk-import' });
  } catch (e) {
    if (!named(e, 'QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue')) throw e;
  }
  return found;
}

/**
 * `cdk import` arguments adopting an orphaned dead-letter queue into `Vigia-<stage>-Api`, with the deploy's
 * own context (`-c stage=…`, `createdAt`, `--context` values) so the template is the one the deploy makes.
 */
export function importQueueArgs(stage: string, queueUrl: string, context: readonly string[]): string[] {
  return [
    'import', stackName(stage, 'Api'),
    '-c', `stage=${stage}`,
    ...context,
    '--resource-mapping-inline', JSON.stringify({ [NOTIFICATIONS_DLQ_LOGICAL_ID]: { QueueUrl: queueUrl } }),
    '--force',
    '--no-notices',
  ];
}

/** What the deploy does about retained resources: extra `cdk deploy` flags and `cdk import` runs before it. */
export interface AdoptionPlan {
  importExistingResources: boolean;
  /** Each entry: the arguments of one `npx cdk import …` to run before the deploy. */
  imports: string[][];
  /** Progress lines. */
  notes: string[];
}

/** The plan for `orphans` on `stage` (`context`: the deploy's `-c key=value` arguments besides the stage). */
export function adoptionPlan(stage: string, orphans: readonly OrphanedResource[], context: readonly string[]): AdoptionPlan {
  const production = stageProfile(stage) === 'production';
  return {
    importExistingResources: production,
    imports: orphans.filter((o) => o.adoption === 'cdk-import').map((o) => importQueueArgs(stage, o.physicalId, context)),
    notes: orphans.map((o) =>
      o.adoption === 'cdk-import'
        ? `retained ${o.name} belongs to no stack: cdk import into ${stackName(stage, o.stackPart)} first`
        : `retained ${o.name} belongs to no stack: the deploy adopts it (CloudFormation auto-import)`,
    ),
  };
}
