/**
 * Data stack (`Vigia-<stage>-Data`): the single DynamoDB table of `lambdas/data/table-design.ts`
 * (`PK`/`SK`, index `GSI1` on `GSI1PK`/`GSI1SK` projecting all attributes, TTL on `expiresAt`),
 * named `tableName(stage)` = `vigia-<stage>-main`.
 *
 * On-demand capacity, AWS-managed encryption; point-in-time recovery and retention on production stages
 * (deletion protection in prod), destroyed with the stack and without backups on dev/preview stages
 * (see `stage-config.ts`).
 */
import { CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
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
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: config.pointInTimeRecovery },
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

    if (!config.pointInTimeRecovery) {
      Validations.of(this.table).acknowledge({
        id: 'AwsSolutions-DDB3',
        reason: `Stage ${config.stage} holds only disposable demo/test data and is destroyed with its stack; PITR is on for production stages.`,
      });
    }

    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'DynamoDB table name' });
  }
}
