/**
 * Restore a stage's table to a point in time and point the stage at it (docs/platform.md#restoring-the-table):
 *
 *   npm run platform:restore -- --stage prod --to 2026-11-20T08:00:00Z --approve --context sesFromEmail=… --context sesRegion=…
 *
 * Steps (each printed on stderr), in this order:
 *  1. the stage's CURRENT table from its deployed Data stack outputs (`stageTable`; it may be a restored
 *     table already), its settings (DescribeTable), tags (ListTagsOfResource) and point-in-time window
 *     (DescribeContinuousBackups). A stage that is not deployed, a time outside
 *     [EarliestRestorableDateTime, LatestRestorableDateTime], PITR off or a target name in use stop here:
 *     nothing has been changed.
 *  2. RestoreTableToPointInTime into a NEW table (DynamoDB never restores in place), same billing mode and
 *     encryption as the source, then DescribeTable until it is ACTIVE.
 *  3. What a restore does not carry over ("You must manually set up the following on the restored table:
 *     … Tags, Stream settings, Time to Live (TTL) settings, Point-in-time recovery settings", and deletion
 *     protection: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CreateBackup.html and
 *     https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/PointInTimeRecovery.html), as
 *     `infra/data-stack.ts` declares it: the stream (NEW_IMAGE, the notification consumer's event source),
 *     then deletion protection as on the source, PITR on, TTL on `expiresAt`, the source's tags.
 *  4. `npm run platform:deploy -- --stage <s> --context tableName=<new> --context tableStreamArn=<its stream>`
 *     (plus the given `--context`, `--alarm-email`, `--approve`, `--skip-build`): the Data stack adopts the
 *     new table, the functions and alarms follow, the notification consumer gets the new stream. Later
 *     deploys keep it from the Data stack's outputs (`tableContext`).
 *
 * The old table is left as it is (delete it once the restore is verified). Output (stdout): one JSON line
 * `{ stage, source, target, restoredTo, streamArn }`.
 */
import {
  DescribeContinuousBackupsCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTagsOfResourceCommand,
  RestoreTableToPointInTimeCommand,
  type TableDescription,
  type Tag,
  TagResourceCommand,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE_STREAM_ARN_CONTEXT } from '../../infra/data-stack.js';
import { TABLE_DESIGN } from '../../lambdas/data/table/table-design.js';
import { cloudFormationClient, describeStack, resolveRegion, stageTable, stageTableName, type CfnLike } from './aws.js';
import { checkStage, contextArgs, runNpm } from './cdk.js';
import { optional, parse, progress, required, runCli, UsageError } from './cli.js';
import { stackName } from '../../infra/stage-config.js';

export const USAGE = `
Usage: tsx scripts/platform/restore.ts --stage <stage> --to <ISO-8601 time> [--target <table name>]
       [--approve] [--alarm-email <e-mail>] [--skip-build] [--context key=value ...]

Restores the stage's table (point-in-time recovery) into a new table, re-applies the stream, PITR, TTL,
deletion protection and tags, and deploys the stage onto it.

Options:
  --stage         deployed stage (its table is read from the Vigia-<stage>-Data outputs)
  --to            restore time, ISO-8601 with a zone (e.g. 2026-11-20T08:00:00Z), inside the PITR window
  --target        name of the new table (default vigia-<stage>-main-r<UTC time of the run, yyyymmddhhmmss>)
  --approve, --alarm-email, --skip-build, --context   passed to platform:deploy
  --region        AWS region (default $AWS_REGION)
  -h, --help      this text
`;

/** IAM actions the operator needs for a restore (besides those of platform:deploy). */
export const RESTORE_ACTIONS = [
  'cloudformation:DescribeStacks',
  'dynamodb:DescribeTable', 'dynamodb:DescribeContinuousBackups', 'dynamodb:ListTagsOfResource',
  'dynamodb:RestoreTableToPointInTime', 'dynamodb:UpdateTable', 'dynamodb:UpdateContinuousBackups', 'dynamodb:UpdateTimeToLive', 'dynamodb:TagResource',
  // What RestoreTableToPointInTime itself needs on the target (DynamoDB developer guide, "Using IAM with PITR").
  'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:BatchWriteItem',
] as const;

/** The stream view type the notification consumer reads (`infra/data-stack.ts`: `StreamViewType.NEW_IMAGE`). */
export const STREAM_VIEW_TYPE = 'NEW_IMAGE';

/** The part of a DynamoDB client the restore uses (the SDK client or an aws-sdk-client-mock'ed one). */
export interface DdbLike {
  send(command: object): Promise<unknown>;
}

/** The restore time is outside the source's point-in-time window (or PITR is off): nothing was changed. */
export class RestoreWindowError extends UsageError {}

/** Parses `--to`: ISO-8601 with a zone (`Z` or `±hh:mm`). @throws UsageError */
export function parseRestoreTime(value: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new UsageError(`--to "${value}": an ISO-8601 time with a zone, e.g. 2026-11-20T08:00:00Z`);
  }
  return new Date(value);
}

/** Default name of the restored table: `<stage default name>-r<yyyymmddhhmmss UTC of now>`. */
export function defaultTargetName(stage: string, now: Date): string {
  return `${stageTableName(stage)}-r${now.toISOString().replace(/[-:T]/g, '').slice(0, 14)}`;
}

export interface RestoreInput {
  stage: string;
  region: string;
  to: Date;
  /** Default {@link defaultTargetName}. */
  target?: string;
  /** Arguments for `platform:deploy` besides `--stage` and the table context (e.g. `--approve`, `--context k=v`). */
  deployArgs?: readonly string[];
}

export interface RestoreDeps {
  cfn: CfnLike;
  ddb: DdbLike;
  /** Runs `platform:deploy` with these arguments (default: `npm run platform:deploy -- …`). */
  deploy: (args: string[]) => Promise<void>;
  log?: (line: string) => void;
  /** Waits between DescribeTable polls (default 20 s). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
  /** Give up waiting for ACTIVE after this many polls (default 1080 = 6 h at 20 s). */
  maxPolls?: number;
}

export interface RestoreResult {
  stage: string;
  source: string;
  target: string;
  restoredTo: string;
  streamArn: string;
}

const notFound = (e: unknown) => (e as { name?: string }).name === 'ResourceNotFoundException';

async function describe(ddb: DdbLike, name: string): Promise<TableDescription | null> {
  try {
    return ((await ddb.send(new DescribeTableCommand({ TableName: name }))) as { Table?: TableDescription }).Table ?? null;
  } catch (e) {
    if (notFound(e)) return null;
    throw e;
  }
}

async function waitActive(ddb: DdbLike, name: string, d: Required<Pick<RestoreDeps, 'sleep' | 'maxPolls'>>, log: (l: string) => void, what: string): Promise<TableDescription> {
  for (let i = 0; i < d.maxPolls; i++) {
    const t = await describe(ddb, name);
    if (t?.TableStatus === 'ACTIVE' && !t.RestoreSummary?.RestoreInProgress) return t;
    log(`${what}: ${name} is ${t?.TableStatus ?? 'not visible yet'}${t?.RestoreSummary?.RestoreInProgress ? ' (restore in progress)' : ''}`);
    await d.sleep(20_000);
  }
  throw new Error(`${name} did not become ACTIVE after ${d.maxPolls} checks; the restore goes on in DynamoDB: rerun the remaining steps by hand (docs/platform.md#restoring-the-table)`);
}

/**
 * Restores the stage's table to `input.to` into a new table, re-applies the settings a restore does not
 * carry, and deploys the stage onto it (steps in the module comment).
 * @throws StageNotDeployedError (stage not deployed), RestoreWindowError (PITR off or time outside the
 *         window), UsageError (target name taken) — all before any change; SDK errors otherwise
 */
export async function restoreTable(input: RestoreInput, deps: RestoreDeps): Promise<RestoreResult> {
  const log = deps.log ?? (() => undefined);
  const wait = { sleep: deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))), maxPolls: deps.maxPolls ?? 1080 };
  const { ddb } = deps;

  // 1. Read only: the current table, its window and tags; refuse before changing anything.
  const current = await stageTable(deps.cfn, input.stage, input.region);
  log(`stage ${input.stage} uses table ${current.tableName}`);
  const source = await describe(ddb, current.tableName);
  if (!source?.TableArn) throw new UsageError(`table ${current.tableName} of stage ${input.stage} does not exist in ${input.region}`);
  const backups = (await ddb.send(new DescribeContinuousBackupsCommand({ TableName: current.tableName }))) as {
    ContinuousBackupsDescription?: { PointInTimeRecoveryDescription?: { PointInTimeRecoveryStatus?: string; EarliestRestorableDateTime?: Date; LatestRestorableDateTime?: Date } };
  };
  const pitr = backups.ContinuousBackupsDescription?.PointInTimeRecoveryDescription;
  if (pitr?.PointInTimeRecoveryStatus !== 'ENABLED' || !pitr.EarliestRestorableDateTime || !pitr.LatestRestorableDateTime) {
    throw new RestoreWindowError(`table ${current.tableName} has no point-in-time recovery: nothing to restore from (nothing was changed)`);
  }
  const earliest = new Date(pitr.EarliestRestorableDateTime);
  const latest = new Date(pitr.LatestRestorableDateTime);
  if (input.to < earliest || input.to > latest) {
    throw new RestoreWindowError(
      `--to ${input.to.toISOString()} is outside the point-in-time window of ${current.tableName}: ${earliest.toISOString()} … ${latest.toISOString()} (nothing was changed)`,
    );
  }
  const target = input.target ?? defaultTargetName(input.stage, (deps.now ?? (() => new Date()))());
  if (!/^[A-Za-z0-9_.-]{3,255}$/.test(target)) throw new UsageError(`--target "${target}": 3–255 letters, digits, _ . -`);
  if (await describe(ddb, target)) throw new UsageError(`table ${target} exists already: choose another --target (nothing was changed)`);
  const tags = ((await ddb.send(new ListTagsOfResourceCommand({ ResourceArn: source.TableArn }))) as { Tags?: Tag[] }).Tags ?? [];

  // 2. Restore into the new table, same billing mode and encryption as the source.
  const kms = source.SSEDescription?.SSEType === 'KMS';
  log(`restoring ${current.tableName} as of ${input.to.toISOString()} into ${target}`);
  await ddb.send(
    new RestoreTableToPointInTimeCommand({
      SourceTableName: current.tableName,
      TargetTableName: target,
      RestoreDateTime: input.to,
      BillingModeOverride: source.BillingModeSummary?.BillingMode ?? 'PAY_PER_REQUEST',
      ...(kms ? { SSESpecificationOverride: { Enabled: true, SSEType: 'KMS', ...(source.SSEDescription?.KMSMasterKeyArn ? { KMSMasterKeyId: source.SSEDescription.KMSMasterKeyArn } : {}) } } : {}),
    }),
  );
  await waitActive(ddb, target, wait, log, 'restore');
  log(`${target} is ACTIVE`);

  // 3. What the restore does not carry over.
  await ddb.send(new UpdateTableCommand({ TableName: target, StreamSpecification: { StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE } }));
  const restored = await waitActive(ddb, target, wait, log, 'stream');
  if (!restored.LatestStreamArn) throw new Error(`${target}: the stream was enabled but DescribeTable shows no LatestStreamArn`);
  log(`stream ${STREAM_VIEW_TYPE} on: ${restored.LatestStreamArn}`);
  if (source.DeletionProtectionEnabled) {
    await ddb.send(new UpdateTableCommand({ TableName: target, DeletionProtectionEnabled: true }));
    await waitActive(ddb, target, wait, log, 'deletion protection');
    log('deletion protection on');
  }
  await ddb.send(new UpdateContinuousBackupsCommand({ TableName: target, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }));
  log('point-in-time recovery on');
  await ddb.send(new UpdateTimeToLiveCommand({ TableName: target, TimeToLiveSpecification: { Enabled: true, AttributeName: TABLE_DESIGN.ttlAttribute } }));
  log(`TTL on ${TABLE_DESIGN.ttlAttribute}`);
  if (tags.length > 0 && restored.TableArn) {
    await ddb.send(new TagResourceCommand({ ResourceArn: restored.TableArn, Tags: tags }));
    log(`tags ${tags.map((t) => `${t.Key}=${t.Value}`).join(', ')}`);
  }

  // 4. Deploy the stage onto the new table (the notification consumer gets the new stream).
  await deps.deploy(['--stage', input.stage, '--context', `tableName=${target}`, '--context', `${TABLE_STREAM_ARN_CONTEXT}=${restored.LatestStreamArn}`, ...(input.deployArgs ?? [])]);
  log(`stage ${input.stage} now uses ${target}; ${current.tableName} is left as it is (delete it once the restore is verified)`);
  return { stage: input.stage, source: current.tableName, target, restoredTo: input.to.toISOString(), streamArn: restored.LatestStreamArn };
}

/**
 * The `-c` arguments that keep a deploy on the table the stage uses (called by `platform:deploy`): with no
 * `tableName` in `given` (the deploy's `--context` values), the deployed Data stack's outputs decide — after
 * a restore its `TableName` is not the default, and that name and its `TableStreamArn` are passed on, so a
 * later deploy (CI's too) neither goes back to the old table nor drops the consumer's stream. With a
 * `tableName` but no `tableStreamArn`, the stream is the deployed output's for that table, else the table's
 * `LatestStreamArn` (DescribeTable).
 * @returns the extra arguments and the table name the deploy will use
 */
export async function tableContext(c: { cfn: CfnLike; ddb: DdbLike }, stage: string, given: readonly string[]): Promise<{ args: string[]; tableName: string }> {
  const value = (key: string) => given.find((g) => g.startsWith(`${key}=`))?.slice(key.length + 1) || undefined;
  const givenTable = value('tableName');
  const fallback = { args: [], tableName: givenTable ?? stageTableName(stage) };
  if (value(TABLE_STREAM_ARN_CONTEXT)) return fallback;
  const data = await describeStack(c.cfn, stackName(stage, 'Data'));
  const out = (key: string) => data?.Outputs?.find((o) => o.OutputKey === key)?.OutputValue;
  const deployedTable = out('TableName');
  const table = givenTable ?? (deployedTable && deployedTable !== stageTableName(stage) ? deployedTable : undefined);
  if (!table || table === stageTableName(stage)) return { args: [], tableName: stageTableName(stage) };
  const stream = table === deployedTable && out('TableStreamArn') ? out('TableStreamArn') : (await describe(c.ddb, table))?.LatestStreamArn;
  return {
    args: [...(givenTable ? [] : ['-c', `tableName=${table}`]), ...(stream ? ['-c', `${TABLE_STREAM_ARN_CONTEXT}=${stream}`] : [])],
    tableName: table,
  };
}

export async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    stage: { type: 'string' },
    to: { type: 'string' },
    target: { type: 'string' },
    approve: { type: 'boolean' },
    'alarm-email': { type: 'string' },
    'skip-build': { type: 'boolean' },
    region: { type: 'string' },
    context: { type: 'string', multiple: true },
  });
  if (!p) return 'help';
  const log = progress('restore');
  const stage = checkStage(required(p, 'stage'));
  const to = parseRestoreTime(required(p, 'to'));
  const region = resolveRegion(optional(p, 'region'));
  const contexts = (p.values.context as unknown as string[] | undefined) ?? [];
  contextArgs(contexts); // validates key=value
  if (contexts.some((c) => c.startsWith('tableName=') || c.startsWith(`${TABLE_STREAM_ARN_CONTEXT}=`))) {
    throw new UsageError('--context tableName / tableStreamArn: set by the restore itself (use --target for the name)');
  }
  const alarmEmail = optional(p, 'alarm-email');
  const deployArgs = [
    ...(p.values.approve === true ? ['--approve'] : []),
    ...(alarmEmail ? ['--alarm-email', alarmEmail] : []),
    ...(p.values['skip-build'] === true ? ['--skip-build'] : []),
    '--region', region,
    ...contexts.flatMap((c) => ['--context', c]),
  ];
  const target = optional(p, 'target');
  const ddb = new DynamoDBClient({ region });
  try {
    const r = await restoreTable(
      { stage, region, to, ...(target ? { target } : {}), deployArgs },
      { cfn: cloudFormationClient(region), ddb, deploy: (args) => runNpm('platform:deploy', log, args), log },
    );
    process.stdout.write(`${JSON.stringify(r)}\n`);
  } finally {
    ddb.destroy();
  }
}

runCli(import.meta.url, USAGE, main);
