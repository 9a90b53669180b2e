/**
 * The measured cost of the two ways to end a revoked user's session within 60 s
 * (docs/decisions/session-revocation-marker.md): `npx tsx scripts/bench/session-revocation.ts [--n 400]`.
 *
 * Offline, on the local engines (dynoxide DynamoDB, the local user pool), one process:
 *  (a) the revocation marker: latency of `GET /me` through the REAL account handler with the marker read
 *      from the per-container cache (hit) and read from DynamoDB every time (miss: the handler clock moves past
 *      the 30 s cache before each request), and the bare marker GetItem; its capacity: one eventually
 *      consistent GetItem of an item < 4 KB = 0.5 RCU (read request units on demand);
 *  (b) shorter ID tokens: latency of a refresh (GetTokensFromRefreshToken, the portal's client rotates refresh
 *      tokens) on the local pool, and the refresh
 *      traffic per open session for a token lifetime.
 * Prints one JSON object (milliseconds: p50/p95). Local latencies show the relative cost only; the AWS figures
 * (GetItem single-digit ms in region, the Cognito quota) are in the decision record with their sources.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CognitoIdentityProviderClient, GetTokensFromRefreshTokenCommand } from '@aws-sdk/client-cognito-identity-provider';
import { createHandler } from '../../lambdas/handlers/account.js';
import { cognitoUsers } from '../../lambdas/data/cognito-users.js';
import { createDocumentClient, dynamoRepository } from '../../lambdas/data/index.js';
import { parseLambdaConfig } from '../../lambdas/config.js';
import { REVOCATION_CACHE_MS } from '../../lambdas/domain/session-revocation.js';
import { ensureTable, startDynamo } from '../local/dynamodb.js';
import { startUserPool } from '../local/cognito/index.js';
import { signInWithSrp } from '../local/cognito/sign-in.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../local/config.js';
import { apiEvent, lambdaContext } from '../../test/support/events.js';
import { percentile } from './stats.js';

const n = Number(process.argv[process.argv.indexOf('--n') + 1]) || 400;
const TABLE = 'vigia-bench-revocation';

async function timed(count: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const xs: number[] = [];
  for (let i = 0; i < 20; i++) await fn(); // warm-up
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(percentile(xs, 50)), p95: r(percentile(xs, 95)) };
}

const dir = await mkdtemp(join(tmpdir(), 'vigia-bench-revocation-'));
const dynamo = await startDynamo({ port: 0 });
const pool = await startUserPool({ dataDir: dir, port: 0, internalPort: 0, invitationsFile: join(dir, 'invitations.log') });
try {
  await ensureTable(dynamo.endpoint, TABLE);
  const config = parseLambdaConfig({ stage: 'bench', region: 'eu-west-1', logLevel: 'SILENT', tableName: TABLE, dynamodbEndpoint: dynamo.endpoint });
  const table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }), tableName: TABLE };
  const repository = dynamoRepository(table);
  let clock = Date.now();
  const handler = createHandler(config, { repository, now: () => new Date(clock) });
  const caller = { sub: 'u-bench', groups: ['acme'], iat: Math.floor(Date.now() / 1000) };
  await repository.sessions.revoke('u-bench', new Date(Date.now() - 3_600_000));
  const me = () => handler(apiEvent({ method: 'GET', path: '/me', caller }), lambdaContext);
  const hit = await timed(n, me);
  const miss = await timed(n, () => ((clock += REVOCATION_CACHE_MS + 1), me()));
  const getItem = await timed(n, () => repository.sessions.revokedAt('u-bench'));

  const users = cognitoUsers({ userPoolId: pool.userPoolId, region: 'eu-west-1', endpoint: pool.endpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } });
  await users.createUser('bench@acme.example', { permanentPassword: 'Secreta-123-Bnch' });
  const idp = new CognitoIdentityProviderClient({ region: 'eu-west-1', endpoint: pool.endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  const tokens = await signInWithSrp(idp, { userPoolId: pool.userPoolId, clientId: pool.userPoolClientId, username: 'bench@acme.example', password: 'Secreta-123-Bnch' });
  // The portal's client rotates refresh tokens: each refresh is GetTokensFromRefreshToken and returns the next one.
  let refreshToken = tokens.RefreshToken!;
  const refresh = await timed(Math.min(n, 100), async () => {
    const res = await idp.send(new GetTokensFromRefreshTokenCommand({ ClientId: pool.userPoolClientId, RefreshToken: refreshToken }));
    refreshToken = res.AuthenticationResult?.RefreshToken ?? refreshToken;
  });
  idp.destroy();

  const perHour = (lifetimeMin: number) => Math.ceil(60 / lifetimeMin);
  console.log(
    JSON.stringify(
      {
        requests: n,
        marker: { meCacheHitMs: hit, meCacheMissMs: miss, markerGetItemMs: getItem, rcuPerRead: 0.5, readsPerUserPerContainerPerHour: 3_600_000 / REVOCATION_CACHE_MS },
        shortTokens: { refreshMs: refresh, refreshesPerSessionPerHour: { '60min': perHour(60), '5min': perHour(5), '1min (not allowed by Cognito)': perHour(1) } },
      },
      null,
      2,
    ),
  );
} finally {
  await pool.stop();
  await dynamo.stop();
  await rm(dir, { recursive: true, force: true });
}
