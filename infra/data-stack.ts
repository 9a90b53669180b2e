/**
 * Data stack (`Vigia-<stage>-Data`): the single DynamoDB table of `lambdas/data/table/table-design.ts`
 * (`PK`/`SK`, index `GSI1` on `GSI1PK`/`GSI1SK` and index `GSI2` on `GSI2PK`/`GSI2SK`, index `GSI3` on `GSI3PK`/`GSI3SK`, index `GSI4` on `GSI4PK`/`GSI2SK`, all projecting all attributes, TTL on `expiresAt`),
 * named by the stage setting `tableName` (default `vigia-<stage>-main`).
 *
 * When `tableName` is overridden (`-c tableName=…`, README "Restore the table") the stack does not own a
 * table: it addresses the existing table of that name (e.g. one restored from a point-in-time backup), the
 * previously owned table is left in place by its `RetainExceptOnCreate` deletion policy, and the Api and
 * Monitoring stacks follow the new name (docs/platform.md#restoring-the-table). The adopted table's stream is
 * named by the context value `tableStreamArn` (`platform:restore` and `platform:deploy` pass it, the latter
 * from this stack's deployed `TableStreamArn` output): with it the notification consumer keeps its stream
 * event source (`notifications.ts`); without it the consumer has only the outbox sweep.
 *
 * Outputs: `TableName` and `TableStreamArn` (the operator scripts read the table from them,
 * `scripts/platform/aws.ts` `stageTable`).
 *
 * On-demand capacity, AWS-managed encryption; point-in-time recovery and `RETAIN_ON_UPDATE_OR_DELETE` on
 * production stages (deletion protection in prod; a replacement is refused by the prod stack policy,
 * `stack-policy.ts`), destroyed with the stack and without backups on dev/preview stages (see
 * `stage-config.ts`).
 */
import { CfnOutput, CfnResource, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, type ITable, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { GSIS, TABLE_DESIGN, tableName } from '../lambdas/data/table/table-design.js';
import type { StageConfig } from './stage-config.js';

export interface DataStackProps extends StackProps {
  readonly config: StageConfig;
}

export class DataStack extends Stack {
  /** The stage's table: owned by this stack, or the existing table named by an overridden `tableName`. */
  readonly table: ITable;
  /** Whether this stack owns (creates, retains, deletes) the table. */
  readonly ownsTable: boolean;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;
    const d = TABLE_DESIGN;
    this.ownsTable = config.tableName === tableName(config.stage);
    if (!this.ownsTable) {
      const streamArn = adoptedStreamArn(this.node.tryGetContext(TABLE_STREAM_ARN_CONTEXT), config.tableName);
      this.table = Table.fromTableAttributes(this, 'AdoptedTable', { tableName: config.tableName, ...(streamArn ? { tableStreamArn: streamArn } : {}) });
      // A template needs at least one resource; this one does nothing (CloudFormation's no-op resource).
      new CfnResource(this, 'Placeholder', { type: 'AWS::CloudFormation::WaitConditionHandle' });
      new CfnOutput(this, 'TableName', { value: config.tableName, description: 'DynamoDB table name (not owned by this stack)' });
      if (streamArn) new CfnOutput(this, 'TableStreamArn', { value: streamArn, description: 'Stream of the adopted table (notification consumer)' });
      return;
    }

    const table = new Table(this, 'Table', {
      tableName: config.tableName,
      partitionKey: { name: d.partitionKey, type: AttributeType.STRING },
      sortKey: { name: d.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: d.ttlAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: config.pointInTimeRecovery },
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: config.deletionProtection,
      removalPolicy: config.removalPolicy,
      // New images feed the notification consumer (infra/notifications.ts; docs/notifications.md#delivery).
      stream: StreamViewType.NEW_IMAGE,
    });
    // GSI1 and GSI2 as the table design names them; GSI3: the tenant's incidents by status (docs/data-model.md#search),
    // a status filter is a Query per status; GSI4: one tenant's SOC queue (docs/sla.md#soc-queue), the staff queue
    // filtered by customer is one Query of it. All project every attribute.
    for (const gsi of GSIS) {
      table.addGlobalSecondaryIndex({
        indexName: gsi.indexName,
        partitionKey: { name: gsi.partitionKey, type: AttributeType.STRING },
        sortKey: { name: gsi.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    if (!config.pointInTimeRecovery) {
      Validations.of(table).acknowledge({
        id: 'AwsSolutions-DDB3',
        reason: `Stage ${config.stage} holds only disposable demo/test data and is destroyed with its stack; PITR is on for production stages.`,
      });
    }

    this.table = table;
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'DynamoDB table name' });
    new CfnOutput(this, 'TableStreamArn', { value: table.tableStreamArn!, description: 'DynamoDB stream (NEW_IMAGE) of the table' });
  }
}

/** CDK context key naming the stream of an adopted table (`-c tableStreamArn=arn:aws:dynamodb:…/stream/…`). */
export const TABLE_STREAM_ARN_CONTEXT = 'tableStreamArn';

/**
 * A DynamoDB stream ARN of `table` (`arn:<partition>:dynamodb:<region>:<account>:table/<table>/stream/<label>`,
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html#amazondynamodb-resources-for-iam-policies).
 * @returns undefined when `value` is absent or empty
 * @throws Error when it is not a stream ARN of that table (a stale ARN would silently detach the consumer)
 */
export function adoptedStreamArn(value: unknown, table: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const arn = String(value);
  const m = /^arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/([A-Za-z0-9_.-]{3,255})\/stream\/[0-9A-Za-z:.-]+$/.exec(arn);
  if (!m) throw new Error(`Invalid tableStreamArn "${arn}": expected arn:aws:dynamodb:<region>:<account>:table/${table}/stream/<label>`);
  if (m[1] !== table) throw new Error(`tableStreamArn "${arn}" is the stream of table ${m[1]}, not of ${table}`);
  return arn;
}
