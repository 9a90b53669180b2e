/**
 * Storage faults: when DynamoDB throttles or cannot be reached after the document client's own retries,
 * every route answers 503 SERVICE_UNAVAILABLE with `Retry-After` and the error body (documented for every
 * row in the OpenAPI document, which checks each response here), never a 500 and never a partial write.
 *
 * AWS behaviour mirrored:
 *  - DynamoDB answers throttling with HTTP 400 `ThrottlingException`, `ProvisionedThroughputExceededException`
 *    or `RequestLimitExceeded`, and SDKs retry them with backoff before giving up
 *    (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html);
 *  - a transaction refused for throttling is `TransactionCanceledException` with a `ThrottlingError`
 *    cancellation reason, and is applied entirely or not at all
 *    (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html);
 *  - 503 with `Retry-After` is the HTTP answer for a temporary overload
 *    (RFC 9110 section 15.6.4, https://www.rfc-editor.org/rfc/rfc9110#section-15.6.4).
 *
 * Proven twice: a fake document client throwing those errors (every row, every error), and the real local
 * engine (dynoxide, persisted to a temporary file) stopped under a running API, then restarted.
 */
import type { AttachmentStore } from '../../lambdas/data/attachment-store.js';
import { memoryAttachmentStore } from '../support/memory-attachment-store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { mkdtempSync, rmSync } from 'node:fs';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureTable, freePort, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';
import { validatingHandler } from '../support/in-process-api.js';
import { exampleEvent, seedExamples } from '../support/route-examples.js';
import { parseLambdaConfig, type LambdaConfig } from '../../lambdas/config.js';
import { ROUTES, routeById, type HandlerName, type RouteDef } from '../../lambdas/contract/routes.js';
import { createDocumentClient, dynamoRepository, tableWriters, type Repository } from '../../lambdas/data/index.js';
import type { DocumentClient } from '../../lambdas/data/table/client.js';
import type { ApiHandler, HandlerDeps } from '../../lambdas/http/api.js';
import { RETRY_AFTER_SECONDS } from '../../lambdas/http/faults.js';
import * as account from '../../lambdas/handlers/account.js';
import * as admin from '../../lambdas/handlers/admin.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import { memoryUsers } from '../support/memory-users.js';
import * as devices from '../../lambdas/handlers/devices.js';
import * as incidents from '../../lambdas/handlers/incidents.js';
import * as ingest from '../../lambdas/handlers/ingest.js';
import * as office365 from '../../lambdas/handlers/office365.js';
import * as recommendations from '../../lambdas/handlers/recommendations.js';
import * as reports from '../../lambdas/handlers/reports.js';
import * as notifications from '../../lambdas/handlers/notifications.js';
import { headerOf, lambdaContext } from '../support/events.js';
import { createConsumer } from '../../lambdas/handlers/notifications-consumer.js';

const MODULES: Record<HandlerName, { createHandler(config: LambdaConfig, deps?: HandlerDeps & { users?: UsersPort; attachments?: AttachmentStore }): ApiHandler }> = {
  account, admin, devices, incidents, ingest, office365, recommendations, reports, notifications,
};
const TABLE = 'vigia-faults-main';
const config = (endpoint = 'http://127.0.0.1:1') =>
  parseLambdaConfig({ stage: 'test', region: 'eu-west-1', logLevel: 'SILENT', tableName: TABLE, dynamodbEndpoint: endpoint });
const handlerFor = (name: HandlerName, repository: Repository, endpoint?: string) =>
  // The attachment routes presign against the in-memory store (presigning makes no storage call; the faults are DynamoDB's).
  validatingHandler(MODULES[name].createHandler(config(endpoint), { repository, users: memoryUsers(), attachments: memoryAttachmentStore() }));

/** An error shaped as the document client rejects it (`name` = DynamoDB error code; see lambdas/data/table/client.ts). */
function dynamoError(name: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`${name}: simulated`), { name, ...extra });
}

const FAULTS: [string, () => Error][] = [
  ['ThrottlingException', () => dynamoError('ThrottlingException')],
  ['ProvisionedThroughputExceededException', () => dynamoError('ProvisionedThroughputExceededException')],
  ['RequestLimitExceeded', () => dynamoError('RequestLimitExceeded')],
  ['TransactionCanceledException (ThrottlingError)', () => dynamoError('TransactionCanceledException', { CancellationReasons: [{ Code: 'None' }, { Code: 'ThrottlingError' }] })],
  ['InternalServerError', () => dynamoError('InternalServerError')],
  ['ECONNREFUSED', () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })],
  ['aws-lite connection failure', () => new Error('@aws-lite/client: dynamodb: connect ECONNREFUSED 127.0.0.1:1')],
];

/** A document client whose every call rejects with `fault()`; counts the calls. */
function faultyClient(fault: () => Error): DocumentClient & { calls: number } {
  const c = {
    calls: 0,
    async send() {
      c.calls++;
      throw fault();
    },
    destroy() {},
  };
  return c as unknown as DocumentClient & { calls: number };
}

async function expect503(res: APIGatewayProxyResult, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(503);
  expect(headerOf(res, 'retry-after'), what).toBe(String(RETRY_AFTER_SECONDS));
  const body = JSON.parse(res.body) as { code: string; message: string; requestId: string };
  expect(body.code, what).toBe('SERVICE_UNAVAILABLE');
  expect(body.requestId, what).not.toBe('');
}

describe('throttling injected in the document client → 503 + Retry-After on every row', () => {
  for (const [name, fault] of FAULTS) {
    it(name, async () => {
      const doc = faultyClient(fault);
      const repository = dynamoRepository({ doc, tableName: TABLE });
      // listStaff reads the user pool only (no table call, nothing to throttle).
      for (const row of (ROUTES as readonly RouteDef[]).filter((r) => r.operationId !== 'listStaff')) {
        const res = await handlerFor(row.handler, repository)(exampleEvent(row), lambdaContext);
        await expect503(res, `${row.operationId} / ${name}`);
      }
      expect(doc.calls).toBeGreaterThanOrEqual(ROUTES.length - 1);
    });
  }

  it('an error wrapped as a cause (retry helper, idempotency layer) is still a 503; anything else stays 500', async () => {
    const wrapped = () => Object.assign(new Error('gave up'), { cause: dynamoError('ThrottlingException') });
    const repository = dynamoRepository({ doc: faultyClient(wrapped), tableName: TABLE });
    await expect503(await handlerFor('incidents', repository)(exampleEvent(routeById('listIncidents')), lambdaContext), 'wrapped');
    const other = dynamoRepository({ doc: faultyClient(() => dynamoError('ValidationException')), tableName: TABLE });
    const res = await handlerFor('incidents', other)(exampleEvent(routeById('listIncidents')), lambdaContext);
    expect(res.statusCode).toBe(500);
    expect(headerOf(res, 'retry-after')).toBeUndefined();
  });
});

describe('throttling that starts in the middle of a request never leaves a partial write', () => {
  let engine: RunningDynamo | undefined;
  let real: DocumentClient;
  let raw: DynamoDBClient;

  beforeAll(async () => {
    engine = await startDynamo({ port: 0 });
    await ensureTable(engine.endpoint, TABLE);
    const options = { endpoint: engine.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
    real = createDocumentClient(options);
    raw = new DynamoDBClient(options);
    await seedExamples(tableWriters({ doc: real, tableName: TABLE }));
  }, 60_000);

  afterAll(async () => {
    raw?.destroy();
    await engine?.stop();
  });

  /** Every item of the table except the idempotency records (Powertools' own bookkeeping), sorted. */
  async function items(): Promise<string[]> {
    const out: string[] = [];
    let start: Record<string, never> | undefined;
    do {
      const r = await raw.send(new ScanCommand({ TableName: TABLE, ConsistentRead: true, ExclusiveStartKey: start }));
      for (const it of r.Items ?? []) {
        if (JSON.stringify(it.PK ?? '').includes('IDEMPOTENCY')) continue;
        // Keys sorted at every depth: the engine does not keep the order of a map's members.
        out.push(JSON.stringify(it, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v)));
      }
      start = r.LastEvaluatedKey as Record<string, never> | undefined;
    } while (start);
    return out.sort();
  }

  /** The real client, throttled (`ThrottlingException`) from its `from`-th call on. */
  function throttledFrom(from: number): DocumentClient {
    let n = 0;
    return {
      send: ((op: never, input: never) => (++n >= from ? Promise.reject(dynamoError('ThrottlingException')) : real.send(op, input))) as DocumentClient['send'],
      destroy() {},
    };
  }

  it("createIncident with its search-word write throttled: 201, the whole transaction stored, and the outbox consumer completes the word index (docs/data-model.md#search)", async () => {
    const before = await items();
    // Every BatchWriteItem throttled (after the document client's own retries): the word items' write fails.
    const wordsThrottled: DocumentClient = {
      send: ((op: string, input: never) => (op === 'BatchWriteItem' ? Promise.reject(dynamoError('ThrottlingException')) : real.send(op as never, input))) as DocumentClient['send'],
      destroy() {},
    };
    const repository = dynamoRepository({ doc: wordsThrottled, tableName: TABLE });
    const title = 'Ransomware cifrando servidores';
    const res = await handlerFor('incidents', repository)(
      exampleEvent(routeById('createIncident'), { body: { title, description: 'd', severity: 'high', category: 'malware' }, headers: { 'Idempotency-Key': 'k-words' } }),
      lambdaContext,
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = (JSON.parse(res.body) as { id: string }).id;
    // Nothing partial: the incident, its audit entry and activity event are stored, the tenant's stats item holds
    // its number; only the word items are missing.
    const added = (await items()).filter((i) => !before.includes(i));
    const entities = (kind: string) => added.filter((i) => i.includes(`"entity":{"S":"${kind}"}`)).length;
    expect([entities('Incident'), entities('AuditEntry'), entities('ActivityEvent'), entities('SearchToken')]).toEqual([1, 1, 1, 0]);
    expect(added.some((i) => i.includes('"SK":{"S":"STATS"}') && i.includes(`"incidentSeq":{"N":"${Number(id.slice(4))}"}`))).toBe(true);
    const search = () => dynamoRepository({ doc: real, tableName: TABLE }).incidents.listIncidents('acme', { q: 'ransomware servidores', limit: 10 });
    expect((await search()).items.map((i) => i.id)).toEqual([]);

    // The backstop: the consumer's run of the incident.created event (the local sweep; the stream in AWS).
    const consumer = createConsumer(config(engine!.endpoint), {
      table: { doc: real, tableName: TABLE },
      users: { listGroupMembers: async () => [] },
      senders: { sendEmail: async () => {}, postWebhook: async () => 200 },
    });
    await consumer.sweep({ minAgeSeconds: 0, maxEvents: 1000 });
    expect((await search()).items.map((i) => i.id)).toEqual([id]);
    expect((await items()).filter((i) => !before.includes(i) && i.includes('"entity":{"S":"SearchToken"}'))).toHaveLength(3);
    // Replay-safe: running the event again (a stream redelivery) writes nothing.
    const writes: string[] = [];
    const counting: DocumentClient = { send: ((op: string, input: never) => (writes.push(op), real.send(op as never, input))) as DocumentClient['send'], destroy() {} };
    const { ensureSearchTokens } = await import('../../lambdas/data/incident-search.js');
    expect(await ensureSearchTokens({ doc: counting, tableName: TABLE }, 'acme', id)).toBe(0);
    expect(writes).toEqual(['GetItem', 'BatchGetItem']);
  }, 60_000);

  /** Rows whose act writes the revocation marker before its Cognito call (lambdas/domain/admin.ts markBeforeRemoval, lambdas/domain/team.ts). */
  const REVOKES_FIRST = new Set(['removeTenantUser', 'revokeStaff', 'removeTeamMember']);
  const isRevocationMarker = (item: string) => (JSON.parse(item) as { SK?: { S?: string } }).SK?.S === 'REVOKED';
  for (const row of (ROUTES as readonly RouteDef[]).filter((r) => r.method !== 'GET')) {
    it(`${row.operationId}: 503 with the table as it was, or the whole change`, async () => {
      for (let from = 1; from <= 6; from++) {
        const before = await items();
        const repository = dynamoRepository({ doc: throttledFrom(from), tableName: TABLE });
        const res = await handlerFor(row.handler, repository)(exampleEvent(row, row.request.headers ? { headers: { 'Idempotency-Key': `k-${from}` } } : {}), lambdaContext);
        // A DELETE repeated after an earlier iteration applied it finds nothing (404): the whole change, done once.
        const allowed = row.method === 'DELETE' ? [200, 201, 202, 404, 409, 503] : [200, 201, 202, 409, 503];
        expect(allowed, `${row.operationId} throttled from call ${from}: ${res.body}`).toContain(res.statusCode);
        // The removals write the user's session revocation marker alone before their Cognito call (a retry of a
        // removal that failed after it answers 404 and could not write it then; docs/api.md#session-revocation):
        // a 503 after that call may leave the marker, and nothing else.
        const ignore = REVOKES_FIRST.has(row.operationId) ? (it: string) => !isRevocationMarker(it) : () => true;
        if (res.statusCode === 503) expect((await items()).filter(ignore), `${row.operationId} throttled from call ${from}`).toEqual(before.filter(ignore));
      }
    }, 60_000);
  }
});

describe('the local engine stopped under a running API', () => {
  let dir = '';
  let port = 0;
  let engine: RunningDynamo | undefined;
  let doc: DocumentClient;
  let repository: Repository;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigia-faults-'));
    port = await freePort();
    engine = await startDynamo({ port, dbPath: path.join(dir, 'table.db') });
    await ensureTable(engine.endpoint, TABLE);
    // retries: 1 keeps the wait for an unreachable engine short; the mapping does not depend on the count
    doc = createDocumentClient({ endpoint: engine.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, retries: 1 });
    repository = dynamoRepository({ doc, tableName: TABLE });
    await seedExamples(tableWriters({ doc, tableName: TABLE }));
  }, 60_000);

  afterAll(async () => {
    await engine?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 + Retry-After while the engine is down, writes nothing, and recovers once it is back', async () => {
    const list = routeById('listIncidents');
    const create = routeById('createIncident');
    const h = handlerFor('incidents', repository, engine!.endpoint);
    const before = JSON.parse((await h(exampleEvent(list, { query: { limit: '100' } }), lambdaContext)).body) as { items: unknown[] };

    await engine!.stop();
    engine = undefined;
    const started = Date.now();
    await expect503(await h(exampleEvent(list), lambdaContext), 'GET /incidents, engine down');
    await expect503(await h(exampleEvent(create, { headers: { 'Idempotency-Key': 'k-down' } }), lambdaContext), 'POST /incidents, engine down');
    await expect503(await handlerFor('ingest', repository)(exampleEvent(routeById('ingestHeartbeat')), lambdaContext), 'ingest, engine down');
    const downMs = Date.now() - started;

    engine = await startDynamo({ port, dbPath: path.join(dir, 'table.db') });
    const after = await h(exampleEvent(list, { query: { limit: '100' } }), lambdaContext);
    expect(after.statusCode, after.body).toBe(200);
    // nothing was written while the engine was down: the same incidents as before
    expect((JSON.parse(after.body) as { items: unknown[] }).items).toEqual(before.items);
    // the refused create can be retried with the same Idempotency-Key once the engine is back
    const retried = await h(exampleEvent(create, { headers: { 'Idempotency-Key': 'k-down' } }), lambdaContext);
    expect(retried.statusCode, retried.body).toBe(201);
    expect(downMs).toBeLessThan(30_000);
  }, 90_000);
});
