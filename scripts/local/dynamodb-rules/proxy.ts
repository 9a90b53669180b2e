/**
 * The local DynamoDB rules layer: an HTTP proxy speaking the DynamoDB JSON 1.0 protocol (`POST /`,
 * `X-Amz-Target: DynamoDB_20120810.<Operation>`) on the port every client uses, in front of the engine
 * (dynoxide) on an internal port. It enforces the DynamoDB rules the engine lacks, so the handlers' aws-lite
 * client, the AWS SDK of the operator scripts and botocore all see them:
 *
 *  1. Transaction conflicts (Developer Guide, "Managing complex workflows with DynamoDB transactions",
 *     https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling;
 *     API reference, TransactWriteItems "Errors", https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html):
 *     - a TransactWriteItems touching an item of another TransactWriteItems in progress →
 *       `TransactionCanceledException`, one `CancellationReasons` entry per action
 *       (`{Code:'TransactionConflict', Message:'Transaction is ongoing for the item'}` or `{Code:'None'}`),
 *       message `Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]`;
 *     - a PutItem/UpdateItem/DeleteItem of such an item → `TransactionConflictException`;
 *     - a TransactGetItems reading such an item → `TransactionCanceledException` (reason `TransactionConflict`).
 *     "In progress" = received by this proxy and not yet answered by the engine (`locks.ts`); no delay is added.
 *  2. Per-partition throughput (`throughput.ts`): 3,000 RCU and 1,000 WCU per second per partition key
 *     value, table and index partitions apart. Units are the engine's own `ConsumedCapacity` (transactional
 *     requests count twice, eventually consistent reads half: measured), asked for on every request and
 *     removed from the answer when the client did not ask for it. A request arriving when its partition's
 *     second is used up is refused as an on-demand table does (API reference, "Common errors" and
 *     "ThrottlingReason"): HTTP 400 `ThrottlingException`, message `Throughput exceeds the current capacity
 *     of your table or index. …`, `throttlingReasons: [{reason: 'TableWriteKeyRangeThroughputExceeded',
 *     resource: <table ARN>}]`; inside a transaction, cancellation reason `ThrottlingError` with that message;
 *     in BatchWriteItem/BatchGetItem, the requests of throttled partitions come back in `UnprocessedItems` /
 *     `UnprocessedKeys` (the whole call is a `ThrottlingException` when none can be served: API reference,
 *     BatchWriteItem and BatchGetItem).
 *  3. Limits the engine already enforces itself (measured on dynoxide 1.2.1, so only counted here): item size
 *     400 KB (PutItem, Put actions and the result of UpdateItem), 100 actions and 4 MB per transaction,
 *     25 requests per BatchWriteItem, 100 keys and 16 MB per BatchGetItem, 1 MB per Query page
 *     ("Service, account, and table quotas", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html).
 *
 * Errors use AWS's JSON error shape (`{"__type":"com.amazonaws.dynamodb.v20120810#<Code>", …}`, HTTP 400,
 * `x-amz-crc32` of the body) so SDKs raise their own exception classes. Requests it cannot parse, and
 * operations without item-level rules (Scan, table management), pass through untouched.
 *
 * `dynamoRulesReport()` returns every proxy of this process: requests refused per rule and the hottest
 * partitions with their peak units per second (plain data, for reports).
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { TransactionLocks } from './locks.js';
import { touchesOf, type KeySchema, type Touch } from './requests.js';
import { PartitionMeter, PARTITION_LIMITS, type CapacityKind, type PartitionPeak } from './throughput.js';

/** Options of {@link startRulesProxy}. */
export interface RulesProxyOptions {
  /** Interface and port to listen on (`0` = a free port). */
  host: string;
  port: number;
  /** The engine behind, e.g. `{ host: '127.0.0.1', port: 8001 }`. */
  engine: { host: string; port: number };
  /** Units per partition per second (default 3,000 read / 1,000 write); tests may lower them. */
  limits?: { read: number; write: number };
  /** Account id in the ARNs of throttling reasons (default `000000000000`). */
  accountId?: string;
}

/** Requests refused (or items left unprocessed) per rule, since the proxy started. */
export interface RulesCounters {
  /** All requests received. */
  requests: number;
  /** TransactWriteItems cancelled because another transaction in progress touched one of its items. */
  transactionConflicts: number;
  /** PutItem/UpdateItem/DeleteItem refused with TransactionConflictException. */
  singleItemTransactionConflicts: number;
  /** Requests refused with ThrottlingException (read / write), or transactions cancelled with ThrottlingError. */
  throttledReads: number;
  throttledWrites: number;
  /** BatchWriteItem requests / BatchGetItem keys returned unprocessed because their partition was throttled. */
  unprocessedByThrottling: number;
  /** Refusals by the engine itself, by rule: `itemSize`, `transactionSize`, `transactionActions`, `batchWriteRequests`, `batchGetKeys`, `otherValidation`. */
  engineRefusals: Record<string, number>;
}

/** One proxy's report (plain data). */
export interface RulesProxyReport {
  endpoint: string;
  engine: string;
  limits: { read: number; write: number };
  counters: RulesCounters;
  /** The hottest partitions (peak units in one second), hottest first. */
  hottestPartitions: PartitionPeak[];
}

/** A running rules proxy. */
export interface RunningRulesProxy {
  /** `http://<host>:<port>` of the proxy. */
  endpoint: string;
  report(): RulesProxyReport;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

const ERROR_PREFIX = 'com.amazonaws.dynamodb.v20120810#';
const THROTTLING_MESSAGE =
  'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html';
const CONFLICT_MESSAGE = 'Transaction is ongoing for the item';
const SINGLE_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);
const RULED = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'BatchGetItem', 'BatchWriteItem', 'TransactWriteItems', 'TransactGetItems']);
const SCHEMA_CHANGES = new Set(['CreateTable', 'DeleteTable', 'UpdateTable']);

const proxies = new Set<RunningRulesProxy>();

/** Reports of every rules proxy started in this process (running or stopped), oldest first. */
export function dynamoRulesReport(): { proxies: RulesProxyReport[] } {
  return { proxies: [...proxies].map((p) => p.report()) };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

type Json = Record<string, unknown>;
type Cc = { TableName?: string; CapacityUnits?: number; Table?: { CapacityUnits?: number }; GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }> };

/** Starts the proxy; resolves once it listens. */
export async function startRulesProxy(opts: RulesProxyOptions): Promise<RunningRulesProxy> {
  const locks = new TransactionLocks();
  const meter = new PartitionMeter(opts.limits ?? PARTITION_LIMITS);
  const account = opts.accountId ?? '000000000000';
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const counters: RulesCounters = {
    requests: 0,
    transactionConflicts: 0,
    singleItemTransactionConflicts: 0,
    throttledReads: 0,
    throttledWrites: 0,
    unprocessedByThrottling: 0,
    engineRefusals: {},
  };
  const schemas = new Map<string, KeySchema | null>();
  const pendingSchemas = new Map<string, Promise<void>>();

  function toEngine(path: string, headers: http.IncomingHttpHeaders, body: Buffer, method = 'POST'): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const h: http.OutgoingHttpHeaders = { ...headers, 'content-length': body.length };
      delete h['transfer-encoding'];
      delete h.connection;
      const req = http.request({ host: opts.engine.host, port: opts.engine.port, method, path, headers: h, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 500, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Loads `table`'s key schema from the engine (DescribeTable) once; null when the table does not exist. */
  function loadSchema(table: string): Promise<void> {
    if (schemas.has(table)) return Promise.resolve();
    let p = pendingSchemas.get(table);
    if (!p) {
      const headers = {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.DescribeTable',
        'x-amz-date': '20000101T000000Z',
        authorization: 'AWS4-HMAC-SHA256 Credential=local/20000101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0',
      };
      p = toEngine('/', headers, Buffer.from(JSON.stringify({ TableName: table })))
        .then((a) => {
          if (a.status !== 200) return;
          const t = (JSON.parse(a.body.toString('utf8')) as { Table?: Json }).Table ?? {};
          const hashOf = (ks: unknown) => (ks as Array<{ AttributeName: string; KeyType: string }> | undefined)?.find((k) => k.KeyType === 'HASH')?.AttributeName;
          const rangeOf = (ks: unknown) => (ks as Array<{ AttributeName: string; KeyType: string }> | undefined)?.find((k) => k.KeyType === 'RANGE')?.AttributeName;
          const hashKey = hashOf(t.KeySchema);
          if (!hashKey) return;
          const indexes: Record<string, string> = {};
          for (const g of (t.GlobalSecondaryIndexes ?? []) as Array<{ IndexName: string; KeySchema: unknown }>) {
            const h = hashOf(g.KeySchema);
            if (h) indexes[g.IndexName] = h;
          }
          schemas.set(table, { hashKey, rangeKey: rangeOf(t.KeySchema), indexes });
        })
        .catch(() => undefined)
        .finally(() => pendingSchemas.delete(table));
      pendingSchemas.set(table, p);
    }
    return p;
  }

  function tablesOf(op: string, body: Json): string[] {
    if (typeof body.TableName === 'string') return [body.TableName];
    if (op === 'BatchGetItem' || op === 'BatchWriteItem') return Object.keys((body.RequestItems ?? {}) as Json);
    if (op === 'TransactWriteItems' || op === 'TransactGetItems') {
      return ((body.TransactItems ?? []) as Array<Record<string, { TableName?: string }>>).map((a) => Object.values(a)[0]?.TableName ?? '').filter(Boolean);
    }
    return [];
  }

  function send(res: http.ServerResponse, status: number, headers: http.OutgoingHttpHeaders, body: Buffer): void {
    const h: http.OutgoingHttpHeaders = { ...headers, 'content-length': body.length };
    delete h['transfer-encoding'];
    delete h.connection;
    if (h['x-amz-crc32'] !== undefined) h['x-amz-crc32'] = String(crc32(body));
    res.writeHead(status, h);
    res.end(body);
  }

  function sendError(res: http.ServerResponse, code: string, fields: Json): void {
    const body = Buffer.from(JSON.stringify({ __type: `${ERROR_PREFIX}${code}`, ...fields }));
    send(res, 400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomBytes(26).toString('hex').toUpperCase(), 'x-amz-crc32': '' }, body);
  }

  function regionOf(req: http.IncomingMessage): string {
    const m = /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(String(req.headers.authorization ?? ''));
    return m?.[1] ?? 'us-east-1';
  }

  /** The first over-limit partition of `t` for `kind`, if any (a Put also writes its index partitions). */
  function throttledPartition(t: Touch, kind: CapacityKind, now: number): string | undefined {
    if (t.partition && meter.isOver(t.partition, kind, now)) return t.partition;
    if (kind === 'write') return t.indexPartitions.find((ip) => meter.isOver(ip.partition, 'write', now))?.partition;
    return undefined;
  }

  function throttlingReason(partition: string, kind: CapacityKind, region: string) {
    const resource = partition.slice(0, partition.indexOf('|'));
    const isIndex = resource.includes('/index/');
    return {
      reason: `${isIndex ? 'Index' : 'Table'}${kind === 'read' ? 'Read' : 'Write'}KeyRangeThroughputExceeded`,
      resource: `arn:aws:dynamodb:${region}:${account}:table/${resource}`,
    };
  }

  function countThrottle(kind: CapacityKind): void {
    if (kind === 'read') counters.throttledReads++;
    else counters.throttledWrites++;
  }

  /** Adds the engine's consumed units to the partitions of `touches` (spread by weight within a table / index). */
  function meterAnswer(op: string, kind: CapacityKind, touches: Touch[], consumed: unknown, now: number): void {
    const list = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) as Cc[];
    for (const cc of list) {
      const mine = touches.filter((t) => t.table === cc.TableName && t.partition);
      if (!mine.length) continue;
      const gsiTotal = Object.values(cc.GlobalSecondaryIndexes ?? {}).reduce((s, g) => s + (g.CapacityUnits ?? 0), 0);
      if (op === 'Query') {
        const t = mine[0]!;
        const units = t.partition.slice(0, t.partition.indexOf('|')).includes('/index/') ? gsiTotal || (cc.CapacityUnits ?? 0) : (cc.Table?.CapacityUnits ?? cc.CapacityUnits ?? 0);
        meter.record(t.partition, kind, units, now);
        continue;
      }
      const tableUnits = cc.Table?.CapacityUnits ?? (cc.CapacityUnits ?? 0) - gsiTotal;
      const weight = mine.reduce((s, t) => s + t.weight, 0);
      for (const t of mine) meter.record(t.partition, kind, (tableUnits * t.weight) / weight, now);
      for (const [index, g] of Object.entries(cc.GlobalSecondaryIndexes ?? {})) {
        const writers = mine.flatMap((t) => t.indexPartitions.filter((ip) => ip.index === index).map((ip) => ({ ip, w: t.weight })));
        const w = writers.reduce((s, x) => s + x.w, 0);
        for (const x of writers) meter.record(x.ip.partition, 'write', ((g.CapacityUnits ?? 0) * x.w) / w, now);
      }
    }
  }

  function countEngineRefusal(op: string, answer: Answer): void {
    let text: string;
    try {
      const e = JSON.parse(answer.body.toString('utf8')) as { __type?: string; message?: string; Message?: string };
      if (!String(e.__type ?? '').endsWith('ValidationException')) return;
      text = e.message ?? e.Message ?? '';
    } catch {
      return;
    }
    const rule = /Item size/i.test(text)
      ? 'itemSize'
      : /4MB|Collection size/i.test(text)
        ? 'transactionSize'
        : op === 'TransactWriteItems' && /less than or equal to 100/.test(text)
          ? 'transactionActions'
          : op === 'BatchWriteItem' && /less than or equal to 25/.test(text)
            ? 'batchWriteRequests'
            : op === 'BatchGetItem' && /less than or equal to 100/.test(text)
              ? 'batchGetKeys'
              : 'otherValidation';
    counters.engineRefusals[rule] = (counters.engineRefusals[rule] ?? 0) + 1;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    counters.requests++;
    const target = String(req.headers['x-amz-target'] ?? '');
    const op = target.startsWith('DynamoDB_20120810.') ? target.slice('DynamoDB_20120810.'.length) : '';
    const path = req.url ?? '/';
    let body: Json | undefined;
    if (RULED.has(op)) {
      try {
        const parsed: unknown = JSON.parse(raw.toString('utf8'));
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Json;
      } catch {
        body = undefined;
      }
    }
    if (!body) {
      const a = await toEngine(path, req.headers, raw, req.method ?? 'POST');
      if (SCHEMA_CHANGES.has(op)) schemas.clear();
      send(res, a.status, a.headers, a.body);
      return;
    }

    await Promise.all(tablesOf(op, body).map(loadSchema));
    const { kind, touches } = touchesOf(op, body, (t) => schemas.get(t) ?? undefined);
    const now = Date.now();
    const region = regionOf(req);
    const isTx = op === 'TransactWriteItems' || op === 'TransactGetItems';

    // 1. Transaction conflicts.
    if (SINGLE_WRITES.has(op) && touches[0] && locks.isHeld(touches[0].item)) {
      counters.singleItemTransactionConflicts++;
      sendError(res, 'TransactionConflictException', { message: CONFLICT_MESSAGE });
      return;
    }
    if (isTx) {
      const conflicts = touches.map((t) => !!t.item && locks.isHeld(t.item));
      const throttled = touches.map((t) => throttledPartition(t, kind, now));
      if (conflicts.some(Boolean) || throttled.some(Boolean)) {
        const reasons = touches.map((_, i) =>
          conflicts[i] ? { Code: 'TransactionConflict', Message: CONFLICT_MESSAGE } : throttled[i] ? { Code: 'ThrottlingError', Message: THROTTLING_MESSAGE } : { Code: 'None' },
        );
        if (conflicts.some(Boolean)) counters.transactionConflicts++;
        else countThrottle(kind);
        sendError(res, 'TransactionCanceledException', {
          Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
          CancellationReasons: reasons,
        });
        return;
      }
    }

    // 2. Throughput, for the requests that are not transactions.
    let served = touches;
    let unprocessed: Touch[] = [];
    if (!isTx) {
      const over = touches.map((t) => throttledPartition(t, kind, now));
      const firstOver = over.find(Boolean);
      if (firstOver) {
        const batch = op === 'BatchWriteItem' || op === 'BatchGetItem';
        if (!batch || over.every(Boolean)) {
          countThrottle(kind);
          sendError(res, 'ThrottlingException', { message: THROTTLING_MESSAGE, throttlingReasons: [throttlingReason(firstOver, kind, region)] });
          return;
        }
        served = touches.filter((_, i) => !over[i]);
        unprocessed = touches.filter((_, i) => over[i]);
        counters.unprocessedByThrottling += unprocessed.length;
      }
    }

    // 3. Forward (asking for the consumed capacity), holding the transaction's items until the engine answers.
    const asked = body.ReturnConsumedCapacity;
    const forwarded: Json = { ...body, ReturnConsumedCapacity: 'INDEXES' };
    const split = unprocessed.length ? splitBatch(op, body, touches, unprocessed) : undefined;
    if (split) forwarded.RequestItems = split.kept;
    const release = op === 'TransactWriteItems' ? locks.acquire(touches.map((t) => t.item).filter(Boolean)) : () => undefined;
    let answer: Answer;
    try {
      answer = await toEngine(path, req.headers, Buffer.from(JSON.stringify(forwarded)));
    } finally {
      release();
    }
    if (answer.status !== 200) {
      countEngineRefusal(op, answer);
      send(res, answer.status, answer.headers, answer.body);
      return;
    }
    let out: Json;
    try {
      out = JSON.parse(answer.body.toString('utf8')) as Json;
    } catch {
      send(res, answer.status, answer.headers, answer.body);
      return;
    }
    meterAnswer(op, kind, served, out.ConsumedCapacity, now);
    if (asked === undefined || asked === 'NONE') delete out.ConsumedCapacity;
    else if (asked === 'TOTAL' && out.ConsumedCapacity) out.ConsumedCapacity = totalOnly(out.ConsumedCapacity);
    if (split) {
      const field = op === 'BatchWriteItem' ? 'UnprocessedItems' : 'UnprocessedKeys';
      out[field] = mergeUnprocessed(op, (out[field] ?? {}) as Json, split.left);
    }
    send(res, 200, answer.headers, Buffer.from(JSON.stringify(out)));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      // The engine is unreachable (stopped, crashed): the client sees a broken connection, as without the proxy.
      req.socket.destroy();
    });
  });
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const urlHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host;
  const endpoint = `http://${urlHost}:${port}`;
  const running: RunningRulesProxy = {
    endpoint,
    report: () => ({
      endpoint,
      engine: `http://${opts.engine.host}:${opts.engine.port}`,
      limits: { ...meter.limits },
      counters: { ...counters, engineRefusals: { ...counters.engineRefusals } },
      hottestPartitions: meter.hottest(10),
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
  proxies.add(running);
  if (proxies.size > 50) proxies.delete(proxies.values().next().value as RunningRulesProxy);
  return running;
}

/** ConsumedCapacity as `ReturnConsumedCapacity: 'TOTAL'` gives it (no per-table/index breakdown). */
function totalOnly(cc: unknown): unknown {
  const one = (c: Json) => Object.fromEntries(Object.entries(c).filter(([k]) => !['Table', 'GlobalSecondaryIndexes', 'LocalSecondaryIndexes'].includes(k)));
  return Array.isArray(cc) ? (cc as Json[]).map(one) : one(cc as Json);
}

/** A batch's `RequestItems` without the `unprocessed` touches, and those left out (same shape). */
function splitBatch(op: string, body: Json, touches: Touch[], unprocessed: Touch[]): { kept: Json; left: Json } {
  const skip = new Set(unprocessed);
  const kept: Json = {};
  const left: Json = {};
  let i = 0;
  for (const [table, r] of Object.entries((body.RequestItems ?? {}) as Json)) {
    if (op === 'BatchWriteItem') {
      const rs = r as unknown[];
      const k: unknown[] = [];
      const l: unknown[] = [];
      for (const one of rs) {
        (touches[i] && skip.has(touches[i]!) ? l : k).push(one);
        i++;
      }
      if (k.length) kept[table] = k;
      if (l.length) left[table] = l;
    } else {
      const { Keys, ...rest } = r as { Keys: unknown[] };
      const k: unknown[] = [];
      const l: unknown[] = [];
      for (const one of Keys ?? []) {
        (touches[i] && skip.has(touches[i]!) ? l : k).push(one);
        i++;
      }
      if (k.length) kept[table] = { ...rest, Keys: k };
      if (l.length) left[table] = { ...rest, Keys: l };
    }
  }
  return { kept, left };
}

/** The engine's unprocessed requests/keys plus the ones the proxy held back. */
function mergeUnprocessed(op: string, engine: Json, held: Json): Json {
  const out: Json = { ...engine };
  for (const [table, v] of Object.entries(held)) {
    if (op === 'BatchWriteItem') out[table] = [...((out[table] as unknown[] | undefined) ?? []), ...(v as unknown[])];
    else {
      const prev = out[table] as { Keys?: unknown[] } | undefined;
      const h = v as { Keys: unknown[] };
      out[table] = { ...h, Keys: [...(prev?.Keys ?? []), ...h.Keys] };
    }
  }
  return out;
}
