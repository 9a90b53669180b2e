/**
 * Local DynamoDB engine for the offline stack and the integration tests: runs the dynoxide binary
 * (`@dynoxide/linux-x64`, a DynamoDB-compatible server backed by SQLite; see docs/local-emulation.md#dynamodb)
 * on an internal port, behind the DynamoDB rules layer (`./dynamodb-rules/`: transaction conflicts and
 * per-partition throughput, which dynoxide does not enforce) on the port every client uses, and creates the
 * single application table.
 *
 *  - `startDynamo({ port, internalPort, dbPath, host, rules })` → `{ endpoint, engineEndpoint, rules, stop() }`
 *  - `ensureTable(endpoint, name)` creates the table from `createTableInput` if absent, and enables TTL.
 *
 * Errors (each a one-line `Error`): missing binary (names the package and the platform), busy port,
 * engine exiting or not answering within 10 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import net from 'node:net';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  UpdateTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, gsiInput, GSIS, TABLE_DESIGN } from '../../lambdas/data/table/table-design.js';
import { DEMO_REGION, LOCAL_AWS_CREDENTIALS } from './config.js';
import { startRulesProxy, type RulesProxyOptions, type RunningRulesProxy } from './dynamodb-rules/index.js';

const DYNOXIDE_PACKAGE = '@dynoxide/linux-x64';
const READY_TIMEOUT_MS = 10_000;

export interface StartDynamoOptions {
  /** TCP port every client uses (the rules layer); default 8000; `0` picks a free port. */
  port?: number;
  /** The engine's own port behind the rules layer (loopback of `host`); default `0`, a free port (`npm start`: 8001). */
  internalPort?: number;
  /**
   * The DynamoDB rules layer (docs/local-emulation.md#dynamodb); on by default. `false` (diagnostics only)
   * serves the engine itself on `port`; an object sets the proxy's limits (tests).
   */
  rules?: boolean | Pick<RulesProxyOptions, 'limits'>;
  /** SQLite file to persist to; omit for an in-memory engine. */
  dbPath?: string;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
}

export interface RunningDynamo {
  /** e.g. `http://127.0.0.1:8000` — use as `AWS_ENDPOINT_URL_DYNAMODB`; the rules layer when it is on. */
  endpoint: string;
  /** The engine's own endpoint (no rules): for diagnostics only. */
  engineEndpoint: string;
  /** The rules layer (its `report()`), or undefined when started with `rules: false`. */
  rules: RunningRulesProxy | undefined;
  /** Stops the engine (SIGTERM, then SIGKILL after 2 s); resolves once the process has exited. */
  stop(): Promise<void>;
}

/** Absolute path of the dynoxide binary; throws a one-line Error if the package is not installed. */
export function dynoxideBinary(): string {
  const require = createRequire(import.meta.url);
  let pkgJson: string;
  try {
    pkgJson = require.resolve(`${DYNOXIDE_PACKAGE}/package.json`);
  } catch {
    throw new Error(
      `dynoxide binary not found: package ${DYNOXIDE_PACKAGE} is not installed (platform ${process.platform}-${process.arch}; it is an optionalDependency that only installs on linux-x64)`,
    );
  }
  const bin = join(dirname(pkgJson), 'dynoxide');
  if (!existsSync(bin)) {
    throw new Error(`dynoxide binary missing at ${bin} (package ${DYNOXIDE_PACKAGE}, platform ${process.platform}-${process.arch})`);
  }
  return bin;
}

/** A free TCP port on `host`, chosen by the OS. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const r = await reservePort(host);
  await r.release();
  return r.port;
}

/**
 * A free TCP port on `host`, kept bound until `release()` — for a port that must be known long before its
 * server starts (the portal's origin, needed by the gateway's CORS, is bound only after the seed). A port
 * from `freePort` is unbound meanwhile, and the kernel may hand it to an outgoing connection as its
 * ephemeral local port (same range), so the later `listen` fails with EADDRINUSE.
 */
export function reservePort(host = '127.0.0.1'): Promise<{ port: number; release: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      let released: Promise<void> | undefined;
      resolve({ port, release: () => (released ??= new Promise<void>((r) => srv.close(() => r()))) });
    });
  });
}

function assertPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', (e: NodeJS.ErrnoException) => {
      reject(
        new Error(
          e.code === 'EADDRINUSE'
            ? `cannot start dynoxide: port ${port} on ${host} is already in use`
            : `cannot start dynoxide on ${host}:${port}: ${e.code ?? e.message}`,
        ),
      );
    });
    srv.listen(port, host, () => srv.close(() => resolve()));
  });
}

function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: DEMO_REGION,
    credentials: { ...LOCAL_AWS_CREDENTIALS },
    maxAttempts: 1,
  });
}

/**
 * Starts dynoxide on the internal port, then the rules layer on `port`; resolves once the engine answers
 * ListTables and the layer listens.
 */
export async function startDynamo(opts: StartDynamoOptions = {}): Promise<RunningDynamo> {
  const host = opts.host ?? '127.0.0.1';
  const rulesOn = opts.rules !== false;
  const publicPort = opts.port === 0 ? await freePort(host) : (opts.port ?? 8000);
  if (rulesOn) await assertPortFree(publicPort, host);
  // The engine listens on loopback only when the rules layer fronts it (nobody should bypass the rules).
  const engineHost = rulesOn ? (host.includes(':') ? '::1' : '127.0.0.1') : host;
  const port = !rulesOn ? publicPort : opts.internalPort ? opts.internalPort : await freePort(engineHost);
  const bin = dynoxideBinary();
  await assertPortFree(port, engineHost);

  const args = ['serve', '--host', engineHost, '--port', String(port)];
  if (opts.dbPath) args.push('--db-path', opts.dbPath);
  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  let exited = false;
  // Never leave an orphan engine behind if this Node process exits without calling stop().
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => {
    exited = true;
    process.removeListener('exit', killOnExit);
    resolve();
  }));
  const urlHost = engineHost.includes(':') ? `[${engineHost}]` : engineHost === '0.0.0.0' ? '127.0.0.1' : engineHost;
  const endpoint = `http://${urlHost}:${port}`;
  let proxy: RunningRulesProxy | undefined;

  const stop = async (): Promise<void> => {
    await proxy?.close();
    proxy = undefined;
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exitedPromise;
    clearTimeout(timer);
  };

  const client = localClient(endpoint);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      if (exited) {
        const line = stderr.trim().split('\n').pop() ?? '';
        throw new Error(
          /in use/i.test(stderr)
            ? `cannot start dynoxide: port ${port} on ${host} is already in use`
            : `dynoxide exited before answering (code ${child.exitCode ?? '?'}): ${line}`,
        );
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`dynoxide did not answer on ${endpoint} within ${READY_TIMEOUT_MS} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    if (rulesOn) {
      proxy = await startRulesProxy({
        host,
        port: publicPort,
        engine: { host: engineHost, port },
        ...(typeof opts.rules === 'object' && opts.rules.limits ? { limits: opts.rules.limits } : {}),
      }).catch((e: NodeJS.ErrnoException) => {
        throw new Error(e.code === 'EADDRINUSE' ? `cannot start dynoxide: port ${publicPort} on ${host} is already in use` : `cannot start the DynamoDB rules layer on ${host}:${publicPort}: ${e.code ?? e.message}`);
      });
    }
  } catch (e) {
    await stop();
    throw e;
  } finally {
    client.destroy();
  }
  return { endpoint: proxy?.endpoint ?? endpoint, engineEndpoint: endpoint, rules: proxy, stop };
}

/**
 * Creates table `name` from `createTableInput` if it does not exist, adds any index of the table design an
 * existing table lacks (UpdateTable `Create`, e.g. `GSI2` on a `.local/` table made before it existed),
 * waits until ACTIVE and enables TTL on `expiresAt`. Idempotent (safe to call on every start). Returns
 * whether the table was created.
 */
export async function ensureTable(endpoint: string, name: string): Promise<boolean> {
  const client = localClient(endpoint);
  try {
    let created = false;
    try {
      const existing = await client.send(new DescribeTableCommand({ TableName: name }));
      const have = new Set((existing.Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
      for (const g of GSIS.filter((x) => !have.has(x.indexName))) {
        await client.send(
          new UpdateTableCommand({
            TableName: name,
            AttributeDefinitions: [g.partitionKey, g.sortKey].map((n) => ({ AttributeName: n, AttributeType: 'S' as const })),
            GlobalSecondaryIndexUpdates: [{ Create: gsiInput(g) }],
          }),
        );
      }
    } catch (e) {
      if (!(e instanceof ResourceNotFoundException)) throw e;
      try {
        await client.send(new CreateTableCommand(createTableInput(name)));
        created = true;
      } catch (ce) {
        if (!(ce instanceof ResourceInUseException)) throw ce;
      }
    }
    for (let i = 0; i < 100; i++) {
      const d = await client.send(new DescribeTableCommand({ TableName: name }));
      const indexesActive = (d.Table?.GlobalSecondaryIndexes ?? []).every((g) => g.IndexStatus === undefined || g.IndexStatus === 'ACTIVE');
      if (d.Table?.TableStatus === 'ACTIVE' && indexesActive) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: name }));
    const status = ttl.TimeToLiveDescription?.TimeToLiveStatus;
    if (status !== 'ENABLED' && status !== 'ENABLING') {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { AttributeName: TABLE_DESIGN.ttlAttribute, Enabled: true },
        }),
      );
    }
    return created;
  } finally {
    client.destroy();
  }
}
