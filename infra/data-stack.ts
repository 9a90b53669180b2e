/**
 * Data stack (`Vigia-<stage>-Data`): the single DynamoDB table of `lambdas/data/table-design.ts`
 * (`PK`/`SK`, index `GSI1` on `GSI1PK`/`GSI1SK` projecting all attributes, TTL on `expiresAt`),
 * named `tableName(stage)` = `vigia-<stage>-main`.
 *
 * On-demand capacity, point-in-time recovery, AWS-managed encryption; retained (and deletion-protected
 * in prod) on production stages, destroyed with the stack on dev/preview stages (see `stage-config.ts`).
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { TABLE_DESIGN, tableName } from '../lambdas/data/table-design.js';
import type { StageConfig } from './stage-config.js';

export interface DataStackProps extends StackProps {
  readonly config: StageConfig;
}

export class DataStack extends Stack {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;
    const d = TABLE_DESIGN;

    this.table = new Table(this, 'Table', {
      tableName: tableName(config.stage),
      partitionKey: { name: d.partitionKey, type: AttributeType.STRING },
      sortKey: { name: d.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: d.ttlAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: config.deletionProtection,
      removalPolicy: config.removalPolicy,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: d.gsi1.indexName,
      partitionKey: { name: d.gsi1.partitionKey, type: AttributeType.STRING },
      sortKey: { name: d.gsi1.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });

    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'DynamoDB table name' });
  }
}
