/**
 * `npm run platform:redrive-notifications` (scripts/platform/redrive-notifications.ts; docs/platform.md#alarms)
 * against aws-sdk-client-mock's SQS, DynamoDB Streams and Lambda clients: the calls and their order
 * (ReceiveMessage → GetShardIterator AT_SEQUENCE_NUMBER → GetRecords up to the last sequence number → Invoke
 * with a stream-shaped event → DeleteMessage), the consumer's filter applied, and every way a message is
 * KEPT (never deleted): a partial batch failure, a function error, records past the stream's 24 h retention
 * (by age or TrimmedDataAccessException), a shard that no longer exists, a body that is not a batch record.
 */
import { DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, TrimmedDataAccessException, type _Record } from '@aws-sdk/client-dynamodb-streams';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { batchInfoOf, main, NotABatchRecordError, redriveNotifications } from '../../scripts/platform/redrive-notifications.js';

const sqs = mockClient(SQSClient);
const streams = mockClient(DynamoDBStreamsClient);
const lambda = mockClient(LambdaClient);
const clients = () => ({ sqs: new SQSClient({ region: 'eu-west-1' }), streams: new DynamoDBStreamsClient({ region: 'eu-west-1' }), lambda: new LambdaClient({ region: 'eu-west-1' }) });

const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/111122223333/vigia-prod-notifications-dlq';
const FN = 'vigia-prod-notifications-consumer';
const STREAM = 'arn:aws:dynamodb:eu-west-1:111122223333:table/vigia-prod-main/stream/2026-11-27T00:00:00.000';
const NOW = new Date('2026-11-28T12:00:00.000Z');

/** An on-failure record as Lambda writes it for a DynamoDB stream batch. */
const body = (start: string, end: string, firstArrival = '2026-11-28T10:00:00.000Z') =>
  JSON.stringify({
    requestContext: { requestId: 'r1', functionArn: `arn:aws:lambda:eu-west-1:111122223333:function:${FN}`, condition: 'RetryAttemptsExhausted', approximateInvokeCount: 4 },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: '2026-11-28T10:05:00.000Z',
    DDBStreamBatchInfo: {
      shardId: 'shardId-0001',
      startSequenceNumber: start,
      endSequenceNumber: end,
      approximateArrivalOfFirstRecord: firstArrival,
      approximateArrivalOfLastRecord: firstArrival,
      batchSize: 2,
      streamArn: STREAM,
    },
  });

const record = (seq: string, over: { entity?: string; outbox?: string; eventName?: 'INSERT' | 'MODIFY' } = {}): _Record => ({
  eventID: `ev-${seq}`,
  eventName: over.eventName ?? 'INSERT',
  eventVersion: '1.1',
  eventSource: 'aws:dynamodb',
  awsRegion: 'eu-west-1',
  dynamodb: {
    ApproximateCreationDateTime: new Date('2026-11-28T10:00:00.000Z'),
    SequenceNumber: seq,
    Keys: { PK: { S: 'T#acme' }, SK: { S: `ACT#${seq}` } },
    NewImage: { PK: { S: 'T#acme' }, SK: { S: `ACT#${seq}` }, entity: { S: over.entity ?? 'ActivityEvent' }, outbox: { S: over.outbox ?? 'PENDING' } },
    StreamViewType: 'NEW_IMAGE',
  },
});

const payload = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)) as never;
const invokedRecords = (i: number) => (JSON.parse(new TextDecoder().decode(lambda.commandCalls(InvokeCommand)[i]!.args[0].input.Payload as Uint8Array)) as { Records: { eventID: string; eventSourceARN: string; dynamodb: { ApproximateCreationDateTime: number } }[] }).Records;
/** Every call of the three clients in the order made (each mock's own call list has no cross-client order). */
let order: string[] = [];
const logged = <I, T>(name: string, answer: (input: I) => T) => (input: I): T => {
  order.push(name);
  return answer(input);
};

beforeEach(() => {
  sqs.reset();
  streams.reset();
  lambda.reset();
  order = [];
});

describe('platform:redrive-notifications', () => {
  it('re-drives a batch: records read by sequence range, filtered as the mapping does, sent as a stream event, then the message deleted', async () => {
    let received = 0;
    sqs.on(ReceiveMessageCommand).callsFake(logged('ReceiveMessage', () => ({ Messages: received++ ? [] : [{ MessageId: 'm1', ReceiptHandle: 'h1', Body: body('100', '300') }] })));
    sqs.on(DeleteMessageCommand).callsFake(logged('DeleteMessage', () => ({})));
    streams.on(GetShardIteratorCommand).callsFake(logged('GetShardIterator', () => ({ ShardIterator: 'it-1' })));
    // Two pages; an unrelated item (not an activity event) and a MODIFY lie inside the range; 400 is past it.
    const pages: Record<string, unknown> = {
      'it-1': { Records: [record('100'), record('150', { entity: 'Device' })], NextShardIterator: 'it-2' },
      'it-2': { Records: [record('200', { eventName: 'MODIFY' }), record('300'), record('400')], NextShardIterator: 'it-3' },
    };
    streams.on(GetRecordsCommand).callsFake(logged('GetRecords', (input: { ShardIterator: string }) => pages[input.ShardIterator]));
    lambda.on(InvokeCommand).callsFake(logged('Invoke', () => ({ StatusCode: 200, Payload: payload({ batchItemFailures: [] }) })));

    const report = await redriveNotifications(clients(), { queueUrl: QUEUE, functionName: FN, now: () => NOW });

    expect(report).toMatchObject({ redriven: 1, kept: 0, messages: [{ messageId: 'm1', outcome: 'redriven', read: 2, delivered: 2, shardId: 'shardId-0001', range: '100..300' }] });
    expect(order).toEqual(['ReceiveMessage', 'GetShardIterator', 'GetRecords', 'GetRecords', 'Invoke', 'DeleteMessage', 'ReceiveMessage']);
    expect(streams.commandCalls(GetShardIteratorCommand)[0]!.args[0].input).toEqual({ StreamArn: STREAM, ShardId: 'shardId-0001', ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: '100' });
    expect(streams.commandCalls(GetRecordsCommand)).toHaveLength(2); // stops at the last sequence number, no third page
    const invoke = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect([invoke.FunctionName, invoke.InvocationType]).toEqual([FN, 'RequestResponse']);
    const sent = invokedRecords(0);
    expect(sent.map((r) => r.eventID)).toEqual(['ev-100', 'ev-300']);
    expect(sent[0]!.eventSourceARN).toBe(STREAM);
    expect(sent[0]!.dynamodb.ApproximateCreationDateTime).toBe(Date.parse('2026-11-28T10:00:00.000Z') / 1000); // epoch seconds, as Lambda's event
    expect(sqs.commandCalls(DeleteMessageCommand)[0]!.args[0].input).toEqual({ QueueUrl: QUEUE, ReceiptHandle: 'h1' });
  });

  it('a partial batch failure or a function error keeps the message (made visible again), the other message is still re-driven', async () => {
    sqs.on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [
        { MessageId: 'm1', ReceiptHandle: 'h1', Body: body('100', '100') },
        { MessageId: 'm2', ReceiptHandle: 'h2', Body: body('500', '500') },
        { MessageId: 'm3', ReceiptHandle: 'h3', Body: body('700', '700') },
      ] })
      .resolves({ Messages: [] });
    streams.on(GetShardIteratorCommand, { SequenceNumber: '100' }).resolves({ ShardIterator: 'a' })
      .on(GetShardIteratorCommand, { SequenceNumber: '500' }).resolves({ ShardIterator: 'b' })
      .on(GetShardIteratorCommand, { SequenceNumber: '700' }).resolves({ ShardIterator: 'c' });
    streams.on(GetRecordsCommand, { ShardIterator: 'a' }).resolves({ Records: [record('100')] })
      .on(GetRecordsCommand, { ShardIterator: 'b' }).resolves({ Records: [record('500')] })
      .on(GetRecordsCommand, { ShardIterator: 'c' }).resolves({ Records: [record('700')] });
    lambda.on(InvokeCommand)
      .resolvesOnce({ StatusCode: 200, Payload: payload({ batchItemFailures: [{ itemIdentifier: '100' }] }) })
      .resolvesOnce({ StatusCode: 200, Payload: payload({ batchItemFailures: [] }) })
      .resolvesOnce({ StatusCode: 200, FunctionError: 'Unhandled', Payload: payload({ errorType: 'Error', errorMessage: 'storage down' }) });

    const report = await redriveNotifications(clients(), { queueUrl: QUEUE, functionName: FN, now: () => NOW });

    expect(report.messages.map((m) => [m.messageId, m.outcome])).toEqual([['m1', 'kept'], ['m2', 'redriven'], ['m3', 'kept']]);
    expect(report.messages[0]!.reason).toMatch(/failed on 1 record/);
    expect(report.messages[2]!.reason).toMatch(/Unhandled.*storage down/);
    expect(sqs.commandCalls(DeleteMessageCommand).map((c) => c.args[0].input.ReceiptHandle)).toEqual(['h2']);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((c) => [c.args[0].input.ReceiptHandle, c.args[0].input.VisibilityTimeout])).toEqual([['h1', 0], ['h3', 0]]);
    expect([report.redriven, report.kept]).toEqual([1, 2]);
  });

  it('records past the stream retention: said so, message kept, nothing invoked (by age without a stream call; by TrimmedDataAccessException)', async () => {
    sqs.on(ReceiveMessageCommand)
      .resolvesOnce({ Messages: [
        { MessageId: 'old', ReceiptHandle: 'h-old', Body: body('100', '200', '2026-11-27T08:00:00.000Z') },
        { MessageId: 'trimmed', ReceiptHandle: 'h-trim', Body: body('300', '400') },
        { MessageId: 'gone', ReceiptHandle: 'h-gone', Body: JSON.stringify({ ...JSON.parse(body('500', '600')), DDBStreamBatchInfo: { ...JSON.parse(body('500', '600')).DDBStreamBatchInfo, shardId: 'shardId-x' } }) },
        { MessageId: 'junk', ReceiptHandle: 'h-junk', Body: '{"hello":1}' },
      ] })
      .resolves({ Messages: [] });
    streams.on(GetShardIteratorCommand, { ShardId: 'shardId-0001' }).rejects(new TrimmedDataAccessException({ message: 'trimmed', $metadata: {} }));
    streams.on(GetShardIteratorCommand, { ShardId: 'shardId-x' }).rejects(Object.assign(new Error('Requested resource not found'), { name: 'ResourceNotFoundException' }));

    const lines: string[] = [];
    const report = await redriveNotifications(clients(), { queueUrl: QUEUE, functionName: FN, now: () => NOW, log: (l) => lines.push(l) });

    expect(report.messages.map((m) => [m.messageId, m.outcome])).toEqual([['old', 'kept'], ['trimmed', 'kept'], ['gone', 'kept'], ['junk', 'kept']]);
    expect(report.messages[0]!.reason).toMatch(/past the stream's 24 h retention \(first record 2026-11-27T08:00:00.000Z\)/);
    expect(report.messages[1]!.reason).toMatch(/past the stream's 24 h retention/);
    expect(report.messages[2]!.reason).toMatch(/no longer exists/);
    expect(report.messages[3]!.reason).toMatch(/no DDBStreamBatchInfo/);
    expect(streams.commandCalls(GetShardIteratorCommand).map((c) => c.args[0].input.SequenceNumber)).toEqual(['300', '500']); // none for the 26 h old batch
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(0);
    expect(lines.join('\n')).toMatch(/old: kept shardId-0001 100\.\.200 — past the stream's 24 h retention/);
  });

  it('--dry-run reads and reports only; bad metadata is refused; the CLI needs a stage', async () => {
    sqs.on(ReceiveMessageCommand).resolvesOnce({ Messages: [{ MessageId: 'm1', ReceiptHandle: 'h1', Body: body('1', '1') }] }).resolves({ Messages: [] });
    streams.on(GetShardIteratorCommand).resolves({ ShardIterator: 'i' });
    streams.on(GetRecordsCommand).resolves({ Records: [record('1')] });
    const report = await redriveNotifications(clients(), { queueUrl: QUEUE, functionName: FN, dryRun: true, now: () => NOW });
    expect(report.messages).toMatchObject([{ outcome: 'dry-run', read: 1 }]);
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    expect(sqs.commandCalls(DeleteMessageCommand)).toHaveLength(0);

    expect(() => batchInfoOf('not json')).toThrow(NotABatchRecordError);
    expect(() => batchInfoOf(body('300', '100'))).toThrow(/bad sequence range/);
    await expect(main(['--region', 'eu-west-1'])).rejects.toThrow(/--stage is required/);
    await expect(main(['--stage', 'prod', '--max-messages', '0'])).rejects.toThrow(/positive integer/);
  });
});
