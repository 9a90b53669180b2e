/**
 * Re-drives the notification stream consumer's dead-letter queue (docs/platform.md#alarms, alarm
 * `NotificationsDlq`).
 *
 * For a DynamoDB stream source, Lambda's on-failure destination receives only the failed batch's metadata
 * (`DDBStreamBatchInfo`: stream ARN, shard id, first and last sequence number, arrival times, batch size),
 * not the records (https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html). This script,
 * for each DLQ message:
 *
 *  1. reads the records back from the stream: `GetShardIterator` `AT_SEQUENCE_NUMBER` the first sequence
 *     number, then `GetRecords` until the last one (sequence numbers compared as integers). DynamoDB Streams
 *     keep records 24 h (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.html): a
 *     batch whose first record arrived earlier, or a trimmed/absent shard, is reported and its message KEPT;
 *  2. keeps the records the event source mapping's filter lets through (INSERT of an `ActivityEvent` with
 *     `outbox = PENDING`, `infra/notifications.ts`);
 *  3. invokes the consumer function (`Invoke`, RequestResponse) with a stream-shaped event of those records
 *     (chunks of the mapping's batch size), exactly as the mapping would: the consumer delivers each event
 *     once per delivery id, so a record delivered in the meantime (the outbox sweep) is not sent twice;
 *  4. deletes the message only when every chunk was delivered (no `FunctionError`, no `batchItemFailures`);
 *     otherwise the message is kept and made visible again at the end of the run.
 *
 * Usage: `npm run platform:redrive-notifications -- --stage prod [--dry-run] [--max-messages 100]`.
 * Output: progress on stderr, one JSON report on stdout (`RedriveReport`); exit 1 when a message was kept.
 * Permissions of the operator: {@link REDRIVE_ACTIONS}.
 */
import { DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, GetQueueUrlCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { NOTIFICATIONS_STREAM, notificationsConsumerName, notificationsDlqName } from '../../infra/notifications.js';
import { resolveRegion } from './aws.js';
import { optional, parse, progress, runCli, UsageError } from './cli.js';

/** IAM actions this script calls (on the stage's DLQ, the table's stream and the consumer function). */
export const REDRIVE_ACTIONS = [
  'sqs:GetQueueUrl',
  'sqs:ReceiveMessage',
  'sqs:DeleteMessage',
  'sqs:ChangeMessageVisibility',
  'dynamodb:GetShardIterator',
  'dynamodb:GetRecords',
  'lambda:InvokeFunction',
] as const;

/** How long DynamoDB Streams keep a record (ms). */
export const STREAM_RETENTION_MS = NOTIFICATIONS_STREAM.streamRetentionHours * 3_600_000;
/** Visibility timeout of a received message while it is re-driven (s). */
export const RECEIVE_VISIBILITY_SECONDS = 300;
/** Empty `GetRecords` pages in a row after which a range is given up (open shards may answer empty pages). */
export const MAX_EMPTY_PAGES = 20;

/** The `DDBStreamBatchInfo` of an on-failure record (AWS Lambda developer guide, "on-failure destinations"). */
export interface StreamBatchInfo {
  streamArn: string;
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  approximateArrivalOfFirstRecord?: string;
  approximateArrivalOfLastRecord?: string;
  batchSize?: number;
}

/** Raised for a DLQ message that is not an on-failure record of a stream batch (the message is kept). */
export class NotABatchRecordError extends Error {
  override readonly name = 'NotABatchRecordError';
}

const SEQUENCE = /^\d+$/;

/**
 * The batch metadata of a DLQ message body (JSON with `DDBStreamBatchInfo`).
 * @throws NotABatchRecordError when the body is not such a record (unparsable, missing or non-numeric fields)
 */
export function batchInfoOf(body: string | undefined): StreamBatchInfo {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    throw new NotABatchRecordError('the message body is not JSON');
  }
  const info = (parsed as { DDBStreamBatchInfo?: Partial<StreamBatchInfo> } | null)?.DDBStreamBatchInfo;
  if (!info || typeof info !== 'object') throw new NotABatchRecordError('the message has no DDBStreamBatchInfo (not a stream on-failure record)');
  const { streamArn, shardId, startSequenceNumber, endSequenceNumber } = info;
  if (typeof streamArn !== 'string' || typeof shardId !== 'string' || typeof startSequenceNumber !== 'string' || typeof endSequenceNumber !== 'string')
    throw new NotABatchRecordError('DDBStreamBatchInfo lacks streamArn, shardId, startSequenceNumber or endSequenceNumber');
  if (!SEQUENCE.test(startSequenceNumber) || !SEQUENCE.test(endSequenceNumber) || BigInt(startSequenceNumber) > BigInt(endSequenceNumber))
    throw new NotABatchRecordError(`bad sequence range ${startSequenceNumber}..${endSequenceNumber}`);
  return info as StreamBatchInfo;
}

/** The event source mapping's filter (infra/notifications.ts): INSERTs of a PENDING `ActivityEvent`. */
export function matchesConsumerFilter(r: StreamRecord): boolean {
  const image = r.dynamodb?.NewImage;
  return r.eventName === 'INSERT' && image?.entity?.S === 'ActivityEvent' && image.outbox?.S === 'PENDING';
}

/** A stream record as Lambda's DynamoDB event carries it (`ApproximateCreationDateTime` in epoch seconds). */
export function lambdaRecordOf(r: StreamRecord, streamArn: string): Record<string, unknown> {
  const d = r.dynamodb ?? {};
  const created = d.ApproximateCreationDateTime;
  return {
    eventID: r.eventID,
    eventName: r.eventName,
    eventVersion: r.eventVersion,
    eventSource: r.eventSource ?? 'aws:dynamodb',
    awsRegion: r.awsRegion,
    dynamodb: { ...d, ...(created ? { ApproximateCreationDateTime: Math.floor(new Date(created).getTime() / 1000) } : {}) },
    eventSourceARN: streamArn,
  };
}

/** Minimal clients (the SDK v3 clients, or aws-sdk-client-mock's mocks of them). */
export interface RedriveClients {
  sqs: Pick<SQSClient, 'send'>;
  streams: Pick<DynamoDBStreamsClient, 'send'>;
  lambda: Pick<LambdaClient, 'send'>;
}

/** What happened to one DLQ message. */
export interface MessageOutcome {
  messageId: string;
  /** `redriven`: records delivered, message deleted; `kept`: left in the queue (see `reason`). */
  outcome: 'redriven' | 'kept' | 'dry-run';
  shardId?: string;
  range?: string;
  /** Records read from the stream in the range / of them matching the consumer's filter. */
  read?: number;
  delivered?: number;
  reason?: string;
}

/** The run's report (stdout). */
export interface RedriveReport {
  queueUrl: string;
  functionName: string;
  messages: MessageOutcome[];
  redriven: number;
  kept: number;
}

type Fetched = { ok: true; records: StreamRecord[] } | { ok: false; reason: string };

const PAST_RETENTION = (info: StreamBatchInfo) =>
  `past the stream's ${NOTIFICATIONS_STREAM.streamRetentionHours} h retention (first record ${info.approximateArrivalOfFirstRecord ?? 'of unknown age'}): the records can no longer be read. Their events stay in the outbox and the sweep delivers them (docs/notifications.md#delivery); delete the message by hand once checked`;

/** Reads the records `info` names from the stream (see the module doc). */
export async function fetchBatchRecords(streams: RedriveClients['streams'], info: StreamBatchInfo, now: Date = new Date()): Promise<Fetched> {
  const first = info.approximateArrivalOfFirstRecord ? Date.parse(info.approximateArrivalOfFirstRecord) : NaN;
  if (!Number.isNaN(first) && now.getTime() - first > STREAM_RETENTION_MS) return { ok: false, reason: PAST_RETENTION(info) };
  const end = BigInt(info.endSequenceNumber);
  let iterator: string | undefined;
  try {
    iterator = (
      await streams.send(
        new GetShardIteratorCommand({ StreamArn: info.streamArn, ShardId: info.shardId, ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: info.startSequenceNumber }),
      )
    ).ShardIterator;
  } catch (e) {
    const name = (e as Error).name;
    if (name === 'TrimmedDataAccessException') return { ok: false, reason: PAST_RETENTION(info) };
    if (name === 'ResourceNotFoundException')
      return { ok: false, reason: `the stream or shard no longer exists (${info.streamArn} ${info.shardId}: table replaced or restored, or its stream turned off); the events stay in the outbox for the sweep` };
    throw e;
  }
  const records: StreamRecord[] = [];
  let empty = 0;
  while (iterator) {
    let page;
    try {
      page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
    } catch (e) {
      if ((e as Error).name === 'TrimmedDataAccessException') return { ok: false, reason: PAST_RETENTION(info) };
      throw e;
    }
    for (const r of page.Records ?? []) {
      const seq = r.dynamodb?.SequenceNumber;
      if (!seq || BigInt(seq) > end) return { ok: true, records };
      records.push(r);
      if (BigInt(seq) === end) return { ok: true, records };
    }
    empty = (page.Records ?? []).length === 0 ? empty + 1 : 0;
    if (empty >= MAX_EMPTY_PAGES) return { ok: false, reason: `the stream returned no record up to ${info.endSequenceNumber} after ${MAX_EMPTY_PAGES} empty pages; run again later` };
    iterator = page.NextShardIterator;
  }
  // The shard closed before the last sequence number: what was read is all there is.
  return { ok: true, records };
}

/** Invokes `functionName` with `records` as one stream event; null when delivered, else why not. */
async function invokeConsumer(lambda: RedriveClients['lambda'], functionName: string, records: Record<string, unknown>[]): Promise<string | null> {
  const res = await lambda.send(
    new InvokeCommand({ FunctionName: functionName, InvocationType: 'RequestResponse', Payload: new TextEncoder().encode(JSON.stringify({ Records: records })) }),
  );
  const text = res.Payload ? new TextDecoder().decode(res.Payload) : '';
  if (res.FunctionError) return `the consumer failed (${res.FunctionError}): ${text.slice(0, 500)}`;
  let failures: { itemIdentifier?: string }[];
  try {
    failures = (JSON.parse(text || '{}') as { batchItemFailures?: { itemIdentifier?: string }[] }).batchItemFailures ?? [];
  } catch {
    return `the consumer answered something else than a batch response: ${text.slice(0, 200)}`;
  }
  return failures.length > 0 ? `the consumer failed on ${failures.length} record(s) (from sequence number ${failures[0]!.itemIdentifier}); see its log` : null;
}

/**
 * Re-drives the DLQ `queueUrl` into `functionName` (see the module doc): at most `maxMessages` messages.
 * `dryRun` reads and reports without invoking or deleting. Never deletes a message whose records were not all
 * delivered. @throws an SDK error of SQS, or of the stream other than trimmed/absent data (nothing deleted for that message)
 */
export async function redriveNotifications(
  clients: RedriveClients,
  opts: { queueUrl: string; functionName: string; maxMessages?: number; dryRun?: boolean; now?: () => Date; log?: (line: string) => void },
): Promise<RedriveReport> {
  const { sqs, streams, lambda } = clients;
  const log = opts.log ?? (() => {});
  const now = opts.now ?? (() => new Date());
  const max = opts.maxMessages ?? 100;
  const report: RedriveReport = { queueUrl: opts.queueUrl, functionName: opts.functionName, messages: [], redriven: 0, kept: 0 };
  const kept: Message[] = [];
  try {
    while (report.messages.length < max) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: opts.queueUrl, MaxNumberOfMessages: Math.min(10, max - report.messages.length), VisibilityTimeout: RECEIVE_VISIBILITY_SECONDS, WaitTimeSeconds: 1 }),
      );
      if (Messages.length === 0) break;
      for (const m of Messages) {
        const o = await redriveOne(m);
        report.messages.push(o);
        if (o.outcome === 'redriven') report.redriven++;
        else kept.push(m);
        if (o.outcome === 'kept') report.kept++;
        log(`${o.messageId}: ${o.outcome}${o.range ? ` ${o.shardId} ${o.range}` : ''}${o.read !== undefined ? `, ${o.delivered ?? 0}/${o.read} record(s)` : ''}${o.reason ? ` — ${o.reason}` : ''}`);
      }
    }
  } finally {
    // Kept messages become visible again now (not after the receive's visibility timeout): a later run or the console sees them.
    for (const m of kept) await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: opts.queueUrl, ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 }));
  }
  return report;

  async function redriveOne(m: Message): Promise<MessageOutcome> {
    const messageId = m.MessageId ?? '?';
    let info: StreamBatchInfo;
    try {
      info = batchInfoOf(m.Body);
    } catch (e) {
      return { messageId, outcome: 'kept', reason: (e as Error).message };
    }
    const where = { messageId, shardId: info.shardId, range: `${info.startSequenceNumber}..${info.endSequenceNumber}` };
    const fetched = await fetchBatchRecords(streams, info, now());
    if (!fetched.ok) return { ...where, outcome: 'kept', reason: fetched.reason };
    const matching = fetched.records.filter(matchesConsumerFilter);
    if (matching.length === 0)
      return { ...where, outcome: 'kept', read: fetched.records.length, delivered: 0, reason: 'no record of the range matches the consumer filter (nothing to deliver); check the range and delete the message by hand' };
    if (opts.dryRun) return { ...where, outcome: 'dry-run', read: matching.length, delivered: 0 };
    const events = matching.map((r) => lambdaRecordOf(r, info.streamArn));
    let delivered = 0;
    for (let i = 0; i < events.length; i += NOTIFICATIONS_STREAM.batchSize) {
      const chunk = events.slice(i, i + NOTIFICATIONS_STREAM.batchSize);
      const failed = await invokeConsumer(lambda, opts.functionName, chunk);
      if (failed) return { ...where, outcome: 'kept', read: matching.length, delivered, reason: failed };
      delivered += chunk.length;
    }
    await sqs.send(new DeleteMessageCommand({ QueueUrl: opts.queueUrl, ReceiptHandle: m.ReceiptHandle }));
    return { ...where, outcome: 'redriven', read: matching.length, delivered };
  }
}

export const USAGE = `
Usage: npm run platform:redrive-notifications -- --stage <stage> [--dry-run] [--max-messages <n>]

Reads the notification consumer's dead-letter queue (vigia-<stage>-notifications-dlq), fetches each failed
batch's records from the table's stream (within its 24 h retention) and invokes the consumer
(vigia-<stage>-notifications-consumer) with them; a message is deleted only once all its records were
delivered. Messages past the stream's retention, or whose records failed again, are kept and reported.

Options:
  --stage          deployed stage (queue and function names from it)
  --queue-url      DLQ URL (instead of the stage's queue)
  --function       consumer function name (instead of the stage's)
  --max-messages   at most this many messages (default 100)
  --dry-run        read and report only: no invoke, no delete
  --region         AWS region (default $AWS_REGION)
  -h, --help       this text
Exit status: 0 when every message was re-driven, 1 when one was kept.
`;

export async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    stage: { type: 'string' },
    'queue-url': { type: 'string' },
    function: { type: 'string' },
    'max-messages': { type: 'string' },
    'dry-run': { type: 'boolean' },
    region: { type: 'string' },
  });
  if (!p) return 'help';
  const stage = optional(p, 'stage');
  if (!stage && (!optional(p, 'queue-url') || !optional(p, 'function'))) throw new UsageError('--stage is required (or both --queue-url and --function)');
  const maxText = optional(p, 'max-messages');
  const maxMessages = maxText === undefined ? 100 : Number(maxText);
  if (!Number.isInteger(maxMessages) || maxMessages < 1) throw new UsageError('--max-messages must be a positive integer');
  const region = resolveRegion(optional(p, 'region'));
  const clients = { sqs: new SQSClient({ region }), streams: new DynamoDBStreamsClient({ region }), lambda: new LambdaClient({ region }) };
  const queueUrl = optional(p, 'queue-url') ?? (await clients.sqs.send(new GetQueueUrlCommand({ QueueName: notificationsDlqName(stage!) }))).QueueUrl!;
  const functionName = optional(p, 'function') ?? notificationsConsumerName(stage!);
  const log = progress('redrive-notifications');
  log(`${queueUrl} → ${functionName}${p.values['dry-run'] ? ' (dry run)' : ''}`);
  const report = await redriveNotifications(clients, { queueUrl, functionName, maxMessages, dryRun: p.values['dry-run'] === true, log });
  log(`${report.redriven} re-driven, ${report.kept} kept, ${report.messages.length} read`);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  if (report.kept > 0) process.exitCode = 1;
}

runCli(import.meta.url, USAGE, main);
