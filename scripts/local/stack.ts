/**
 * The offline stack, as a library: DynamoDB engine (dynoxide), Cognito user pool (cognito-local + the
 * compatibility layer in `./cognito`), the local API gateway over the same Lambda handlers, demo data,
 * and the built portal with a `config.json` of the production shape (`PortalConfig`).
 *
 * Used by `npm start` (`./start.ts`), the integration tests, the browser suite and the benchmarks, so
 * all of them run the exact same wiring. No AWS account, no Docker, no internet.
 *
 * Configuration is passed explicitly: the handlers get one `LambdaConfig` (`localLambdaConfig` in
 * `./config.ts`) and a repository on the local engine through the gateway; nothing here reads or writes
 * `process.env` (the `npm start` CLI reads its variables and passes them in as options). What each local
 * component stands in for, and where it differs from AWS: docs/local-emulation.md.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sirv from 'sirv';
import type { LambdaConfig } from '../../lambdas/config.js';
import type { PortalConfig } from '../../lambdas/contract/portal-config.js';
import { dynamoRepository, type TableRef } from '../../lambdas/data/index.js';
import { tableName } from '../../lambdas/data/table/table-design.js';
import { accessRequestsRepository } from '../../lambdas/data/access-requests.js';
import { cognitoUsers } from '../../lambdas/data/cognito-users.js';
import { cognitoIdentityProviders } from '../../lambdas/data/cognito-identity-providers.js';
import { identityProviderStore, tenantOfProvider } from '../../lambdas/data/identity-providers.js';
import { secretsManager } from '../../lambdas/data/secrets.js';
import { startLocalSecretsManager } from './secrets-manager.js';
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from './s3.js';
import { LOCAL_ATTACHMENTS_BUCKET, s3AttachmentStore } from '../../lambdas/data/attachment-store.js';
import { localSecurityHeaders } from '../../infra/security-headers.js';
import { randomBytes } from 'node:crypto';
import { startUserPool } from './cognito/index.js';
import { startLocalIdp } from './idp.js';
import { OAUTH_SCOPES } from '../../infra/federation-config.js';
import { ensureTable, freePort, reservePort, startDynamo } from './dynamodb.js';
import { openApiDocument } from '../../lambdas/contract/openapi.js';
import { startCollector } from './collector.js';
import { LOCAL_EMAIL_FROM, startDigestTimer, startMailEmulator, startOutboxPoller } from './notifications.js';
import { SLA_WATCH_INTERVAL_MS } from '../../lambdas/data/activity.js';
import { slaWatch } from '../../lambdas/triggers/sla-watch.js';
import {
  DEFAULT_PORTS,
  DEMO_REGION,
  LOCAL_IDENTITY_PROVIDER,
  LOCAL_ACME_COLLECTOR_CREDENTIAL,
  LOCAL_COLLECTOR_CREDENTIAL,
  LOCAL_OPERATOR_CREDENTIAL,
  LOCAL_STAGE,
  REPO_ROOT,
  localLambdaConfig,
  localTable,
  type CollectorCredential,
  type Ports,
} from './config.js';
import { startGateway, type GatewayRequest } from './gateway.js';
import { servePortalPage } from './portal-index.js';
import { ensureDemoTotp } from './demo-totp.js';
import { refreshHeartbeats, seedDemoData, type DemoUser } from './seed.js';
import { acquireRuntimeIamCheck, runAsFunction, type DeniedCall } from '../aws-rules/recorder.js';

export { freePort } from './dynamodb.js';

export interface LocalStackOptions {
  /** Folder for all local state (git-ignored `.local/` for `npm start`, a temp dir in tests). */
  dataDir: string;
  ports?: Partial<Ports>;
  host?: string;
  /** Keep DynamoDB data on disk under `dataDir` (default true); false = in memory. */
  persist?: boolean;
  /** Seed demo tenants, users, incidents and devices (idempotent; default true). */
  seed?: boolean;
  /** Build the portal: `auto` when sources are newer than `web/dist` (default), `always`, or `never`. */
  buildPortal?: 'auto' | 'always' | 'never';
  /** Serve the portal (default true). */
  serveWeb?: boolean;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Called for every request the API gateway answers (`formatGatewayRequest` makes a log line of it). */
  onRequest?: (request: GatewayRequest) => void;
  /**
   * Run the collector simulator (`./collector.ts`: heartbeats, outages, alarms through the ingest API);
   * default true. Tests that assert on stable data pass `false`. Only runs when demo data is seeded.
   */
  collector?: boolean;
  /** Lines of the collector simulator (a device going down or recovering); default `log`. */
  collectorLog?: (line: string) => void;
  /** Access key of the collector routes (default `LOCAL_COLLECTOR_CREDENTIAL`). */
  collectorCredential?: CollectorCredential;
  /** Powertools log level of the handlers (default `WARN`). */
  logLevel?: LambdaConfig['logLevel'];
  /**
   * Stage throttling of the local gateway (a token bucket, 429 past it), e.g. the development stage's
   * `stageConfig('dev').throttling`; default none, because the benchmark and the collector simulator send
   * more than a deployed stage allows (docs/local-emulation.md#api-gateway).
   */
  throttling?: { rateLimit: number; burstLimit: number };
  /** Grace period (s) of the local app client's refresh token rotation; default the deployed client's (10). */
  refreshTokenGraceSeconds?: number;
  /**
   * Federated sign-in (default false; `npm start` turns it on): a local OpenID provider playing Acme's own
   * identity provider (`LOCAL_IDENTITY_PROVIDER`, port `idp`), the user pool's hosted OAuth endpoints (HTTPS,
   * port `cognitoOAuth`) and `oauth` in config.json, as a stage with `identityProviders`
   * (docs/local-emulation.md#federated-sign-in). Off: no OAuth surface at all, as a stage without providers.
   */
  federation?: boolean;
  /**
   * Notification delivery (default false; `npm start` turns it on): the SES emulator `aws-ses-v2-local` on port
   * `mail` (its page lists the e-mail received) and the outbox poller that delivers activity events by e-mail and
   * webhooks with the consumer's code (docs/notifications.md#offline).
   */
  notifications?: boolean;
  /**
   * Called for each AWS call a function makes that its role, as synthesized, would not allow (IAM on every call,
   * docs/local-emulation.md#iam); the call itself is refused as AWS refuses it. Default: `log` prints it.
   */
  onIamDeny?: (denied: DeniedCall) => void;
}

/** A user who signs in through the local identity provider ("Iniciar sesión con la cuenta de tu empresa"). */
export interface FederatedDemoUser {
  email: string;
  password: string;
  description: string;
  /** The identity provider's issuer (its login page is under it). */
  idp: string;
}

export interface RunningLocalStack {
  urls: { web: string | null; api: string; cognito: string; dynamodb: string; mail?: string | null; s3: string };
  /** The attachments bucket on the local S3 (`urls.s3`; issue 32 point 2). */
  attachmentsBucket: string;
  config: PortalConfig;
  /** The configuration the handlers were given. */
  lambdaConfig: LambdaConfig;
  tableName: string;
  /**
   * The table reference of the handlers' repository: its `doc` may be wrapped (`wrapTableClient` from
   * lambdas/data) to observe every DynamoDB call the API makes (the benchmark's capacity capture).
   */
  repositoryTable: TableRef;
  demoUsers: DemoUser[];
  /** With `federation`: the identity provider's users (empty otherwise). */
  federatedUsers: FederatedDemoUser[];
  /**
   * With `federation`: the local identity provider's registration of the user pool (what staff enter in the
   * administration screen to configure it as a tenant's provider; docs/local-emulation.md#identity-providers-set-by-staff).
   */
  identityProvider?: { issuer: string; clientId: string; clientSecret: string };
  stop(): Promise<void>;
}

/** Newest modification time (ms) of the files under the given paths. */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) for (const e of readdirSync(p)) visit(path.join(p, e));
    else newest = Math.max(newest, st.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

/** Whether `web/dist` is missing or older than the portal's sources. */
/** `<state folder>/invitations.log`: the temporary password of each invitation (the local pool e-mails nothing). */
export function invitationsLog(dataDir: string): string {
  return path.join(dataDir, 'invitations.log');
}

export function portalIsStale(root = REPO_ROOT): boolean {
  const built = path.join(root, 'web/dist/index.html');
  if (!existsSync(built)) return true;
  const sources = ['web/src', 'web/build', 'web/index.html', 'web/vite.config.ts', 'web/public', 'lambdas/contract'].map((p) => path.join(root, p));
  return newestMtime(sources) > statSync(built).mtimeMs;
}

/** Builds the portal with Vite (production mode) into `web/dist`. */
export async function buildPortal(log: (l: string) => void): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: path.join(REPO_ROOT, 'web/vite.config.ts'), logLevel: 'warn', mode: 'production' });
  log('portal built into web/dist');
}

/**
 * Serves `web/dist` with SPA fallback to index.html and `/config.json` from memory, with the same security
 * response headers as CloudFront (`infra/security-headers.ts`; CSP naming the local user pool and gateway).
 * The portal's pages carry the same configuration in `index.html`, as in AWS (`portal-index.ts`,
 * docs/portal.md#configuration-in-indexhtml).
 */
async function serveWeb(port: number, host: string, config: PortalConfig, s3Endpoint?: string): Promise<{ url: string; stop(): Promise<void> }> {
  // dev: true re-reads web/dist on each request, so `npm run build:web` while the stack runs is picked up.
  const distDir = path.join(REPO_ROOT, 'web/dist');
  const assets = sirv(distDir, { single: true, dev: true, etag: true });
  const configJson = JSON.stringify(config, null, 2);
  const inlineJson = JSON.stringify(config);
  // connect-src also names the local S3: the browser uploads attachments to it (docs/api.md#attachments).
  const headers = localSecurityHeaders(config, s3Endpoint);
  const server = http.createServer((req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (req.url === '/config.json' || req.url?.startsWith('/config.json?')) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(configJson);
      return;
    }
    if (servePortalPage(req, res, distDir, inlineJson)) return;
    assets(req, res, () => {
      res.writeHead(404);
      res.end('not found');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new Error(`portal: port ${port} is already in use (stop the other process or set another port)`) : e),
    );
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${actual}`,
    stop: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/**
 * Starts every local component in order and returns their URLs and the portal config.
 * @throws Error with a one-line message on a busy port or a missing engine binary; components already
 *   started are stopped before the error propagates.
 */
export async function startLocalStack(opts: LocalStackOptions): Promise<RunningLocalStack> {
  const log = opts.log ?? (() => undefined);
  const host = opts.host ?? '127.0.0.1';
  const ports: Ports = { ...DEFAULT_PORTS, ...opts.ports };
  // The web origin must be known before the gateway starts (CORS), so a random port is reserved up front and
  // kept bound until the portal listens on it (`reservePort`).
  const webPort = ports.web === 0 ? await reservePort(host) : null;
  if (webPort) ports.web = webPort.port;
  const stops: Array<() => Promise<void>> = webPort ? [webPort.release] : [];
  const stopAll = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
    stops.length = 0;
  };
  mkdirSync(opts.dataDir, { recursive: true });

  try {
    let t = Date.now();
    // IAM on every call: the functions' roles as synthesized for a stage, evaluated on each AWS call they make.
    const iam = await acquireRuntimeIamCheck(opts.onIamDeny ?? ((d) => log(`IAM DENY: ${d.message}`)));
    stops.push(async () => iam.release());
    log(`IAM: every AWS call of a function evaluated against its role in the ${iam.stage} stage (${Date.now() - t} ms)`);
    t = Date.now();
    const persist = opts.persist ?? true;
    const dynamo = await startDynamo({
      port: ports.dynamodb,
      // The engine's own port behind the rules layer: 8001 next to the default 8000, else a free one unless named.
      internalPort: opts.ports?.dynamodbInternal ?? (ports.dynamodb === DEFAULT_PORTS.dynamodb ? DEFAULT_PORTS.dynamodbInternal : 0),
      host,
      ...(persist ? { dbPath: path.join(opts.dataDir, 'dynamodb.sqlite') } : {}),
    });
    stops.push(dynamo.stop);
    const table = tableName(LOCAL_STAGE);
    await ensureTable(dynamo.endpoint, table);
    log(`DynamoDB (dynoxide) on ${dynamo.endpoint}, table ${table} (${Date.now() - t} ms)`);

    // Federated sign-in: the customer's identity provider first (it must know the pool's redirect URI, whose
    // port is therefore fixed up front), then the pool with its hosted OAuth endpoints trusting it.
    let hosted: Parameters<typeof startUserPool>[0]['hosted'];
    let federatedUsers: FederatedDemoUser[] = [];
    let identityProvider: RunningLocalStack['identityProvider'];
    if (opts.federation) {
      t = Date.now();
      if (ports.cognitoOAuth === 0) ports.cognitoOAuth = await freePort(host);
      // The pool's client secret at the identity provider, kept in the state folder: a provider staff configured with
      // it (docs/local-emulation.md#identity-providers-set-by-staff) still signs in after a restart.
      const idpSecretFile = path.join(opts.dataDir, 'idp-client.json');
      const idpClient = {
        clientId: 'vigia-local-user-pool',
        clientSecret: existsSync(idpSecretFile) ? (JSON.parse(readFileSync(idpSecretFile, 'utf8')) as { clientSecret: string }).clientSecret : randomBytes(24).toString('base64url'),
      };
      writeFileSync(idpSecretFile, JSON.stringify({ clientSecret: idpClient.clientSecret }), { mode: 0o600 });
      const idp = await startLocalIdp({
        organisation: LOCAL_IDENTITY_PROVIDER.organisation,
        users: LOCAL_IDENTITY_PROVIDER.users,
        client: { ...idpClient, redirectUris: [`https://${host}:${ports.cognitoOAuth}/oauth2/idpresponse`] },
        port: ports.idp,
        host,
      });
      stops.push(idp.stop);
      const site = `http://${host}:${ports.web}/`;
      hosted = {
        port: ports.cognitoOAuth,
        callbackUrls: [site],
        logoutUrls: [site],
        scopes: [...OAUTH_SCOPES],
        providers: [{ name: LOCAL_IDENTITY_PROVIDER.name, identifiers: LOCAL_IDENTITY_PROVIDER.emailDomains, issuer: idp.issuer, ...idpClient }],
        // The trigger's provider → tenant map, as FEDERATED_TENANTS of a deployed stage.
        tenants: { [LOCAL_IDENTITY_PROVIDER.name]: LOCAL_IDENTITY_PROVIDER.tenant },
      };
      identityProvider = { issuer: idp.issuer, ...idpClient };
      federatedUsers = LOCAL_IDENTITY_PROVIDER.users.map((u) => ({
        email: u.email,
        password: u.password,
        description: `customer of ${LOCAL_IDENTITY_PROVIDER.organisation} through its own identity provider ("Iniciar sesión con la cuenta de tu empresa")`,
        idp: idp.issuer,
      }));
      log(`identity provider ${LOCAL_IDENTITY_PROVIDER.name} (oidc-provider, tenant ${LOCAL_IDENTITY_PROVIDER.tenant}) on ${idp.issuer} (${Date.now() - t} ms)`);
    }

    t = Date.now();
    // The user pool's trigger records access requests (sign-ins of users in no group) in the audit log.
    const auditTable = localTable(dynamo.endpoint, table);
    stops.push(async () => auditTable.doc.destroy());
    // Staff-configured providers (docs/local-emulation.md#identity-providers-set-by-staff): the trigger reads their
    // tenants from the table, as the deployed one does; their client secrets go to the local Secrets Manager.
    let secretsManagerEndpoint: string | undefined;
    if (hosted) {
      hosted = { ...hosted, tenantOfProvider: (name) => runAsFunction('pre-token-generation', () => tenantOfProvider(name, auditTable)) };
      const secrets = await startLocalSecretsManager({ dataDir: path.join(opts.dataDir, 'cognito'), credentials: [LOCAL_OPERATOR_CREDENTIAL], host, region: DEMO_REGION });
      stops.push(secrets.stop);
      secretsManagerEndpoint = secrets.endpoint;
    }
    const pool = await startUserPool({
      dataDir: path.join(opts.dataDir, 'cognito'),
      // The pre-token-generation trigger's own write (AWS: its function's role).
      recordAudit: (entry, request) => runAsFunction('pre-token-generation', async () => void (await accessRequestsRepository(auditTable).raise(request, entry))),
      // Invitations' temporary passwords (the local pool e-mails nothing), printed by `npm start`.
      invitationsFile: invitationsLog(opts.dataDir),
      port: ports.cognito,
      internalPort: ports.cognitoInternal,
      host,
      ...(opts.refreshTokenGraceSeconds !== undefined ? { refreshTokenGraceSeconds: opts.refreshTokenGraceSeconds } : {}),
      ...(hosted ? { hosted } : {}),
    });
    stops.push(pool.stop);
    log(`Cognito user pool ${pool.userPoolId} on ${pool.endpoint} (${Date.now() - t} ms)`);

    // What a deployed function gets from its environment, given to the handlers directly. The repository
    // is built here (not by the handlers from the config) because the local engine needs the dummy
    // credentials of `localTable`, where a Lambda uses its role's.
    let mailUrl: string | null = null;
    if (opts.notifications) {
      t = Date.now();
      const mail = await startMailEmulator({ port: ports.mail, host });
      stops.push(mail.stop);
      mailUrl = mail.url;
      log(`SES emulator (aws-ses-v2-local) on ${mail.url} (${Date.now() - t} ms)`);
    }
    // Attachments (issue 32 point 2): s3rver behind the POST-policy front (scripts/local/s3.ts), objects under
    // the state dir, CORS for the portal origins only. Port `s3` when named (`npm start` names all of them:
    // 4569, VIGIA_PORT_S3), else any free one (the tests name only the ports they reuse).
    t = Date.now();
    const s3 = await startLocalS3({
      port: opts.ports?.s3 ?? 0,
      host,
      dataDir: path.join(opts.dataDir, 's3'),
      buckets: [LOCAL_ATTACHMENTS_BUCKET],
      origins: [`http://${host}:${ports.web}`, `http://localhost:${ports.web}`],
    });
    stops.push(s3.stop);
    log(`S3 (s3rver, POST policies checked) on ${s3.endpoint}, bucket ${LOCAL_ATTACHMENTS_BUCKET} (${Date.now() - t} ms)`);
    const lambdaConfig = localLambdaConfig({
      ...(mailUrl ? { notifications: { siteUrl: `http://${host}:${ports.web}`, sesEndpoint: mailUrl, emailFrom: LOCAL_EMAIL_FROM } } : {}),
      tableName: table,
      dynamodbEndpoint: dynamo.endpoint,
      attachments: { bucket: LOCAL_ATTACHMENTS_BUCKET, s3Endpoint: s3.endpoint },
      allowedOrigins: [`http://${host}:${ports.web}`, `http://localhost:${ports.web}`],
      userPoolClientId: pool.userPoolClientId,
      userPoolId: pool.userPoolId,
      cognitoEndpoint: pool.endpoint,
      ...(opts.logLevel ? { logLevel: opts.logLevel } : {}),
      ...(pool.hosted && secretsManagerEndpoint ? { identityProviders: { oauthDomain: pool.hosted.domain, secretsManagerEndpoint } } : {}),
      // AcmeIdP routes acme.example as a stage's providers file would: its tenant's card shows it.
      ...(hosted ? { stageProviders: [{ name: LOCAL_IDENTITY_PROVIDER.name, type: 'oidc' as const, tenant: LOCAL_IDENTITY_PROVIDER.tenant, emailDomains: [...LOCAL_IDENTITY_PROVIDER.emailDomains] }] } : {}),
    });
    // The admin handler's user pool: the local pool, its administrative calls signed with the operator key.
    const users = cognitoUsers({ userPoolId: pool.userPoolId, region: lambdaConfig.region, endpoint: pool.endpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } });
    const repositoryTable = localTable(dynamo.endpoint, table);
    stops.push(async () => repositoryTable.doc.destroy());
    const repository = dynamoRepository(repositoryTable, { retention: lambdaConfig.retention });
    const collectorOn = opts.collector ?? true;

    let demoUsers: DemoUser[] = [];
    if (opts.seed ?? true) {
      t = Date.now();
      const seeded = await seedDemoData({
        dynamoEndpoint: dynamo.endpoint,
        tableName: table,
        cognitoEndpoint: pool.endpoint,
        userPoolId: pool.userPoolId,
      });
      // Staff must have TOTP (docs/api.md#staff-accounts-and-totp): set it up for the demo users marked `totp`.
      const secrets = await ensureDemoTotp({
        cognitoEndpoint: pool.endpoint,
        userPoolId: pool.userPoolId,
        clientId: pool.userPoolClientId,
        dataDir: opts.dataDir,
        users: seeded.users.filter((u) => u.totp),
      });
      demoUsers = seeded.users.map((u) => (secrets[u.email] ? { ...u, totpSecret: secrets[u.email] } : u));
      log(`demo data ${seeded.created ? 'seeded' : 'already present'} (${Date.now() - t} ms)`);
      // Without the collector simulator, a minimal stand-in keeps the demo devices that are up reporting
      // heartbeats, so their derived status stays online/degraded while the stack runs.
      if (!collectorOn) {
        const heartbeatTable = localTable(dynamo.endpoint, table);
        const timer = setInterval(() => void refreshHeartbeats(heartbeatTable).catch(() => undefined), 60_000);
        timer.unref();
        stops.push(async () => {
          clearInterval(timer);
          heartbeatTable.doc.destroy();
        });
      }
    }

    t = Date.now();
    const gateway = await startGateway({
      port: ports.api,
      host,
      stage: LOCAL_STAGE,
      issuer: pool.issuer,
      jwksUri: pool.jwksUri,
      audience: pool.userPoolClientId,
      allowedOrigins: lambdaConfig.allowedOrigins,
      lambda: {
        config: lambdaConfig,
        repository,
        users,
        // The incidents handler signs attachment transfers with the local S3's key (AWS: its role's credentials).
        attachments: s3AttachmentStore({ bucket: LOCAL_ATTACHMENTS_BUCKET, region: lambdaConfig.region, endpoint: s3.endpoint, credentials: { ...LOCAL_S3_CREDENTIALS } }),
        ...(lambdaConfig.identityProviders
          ? {
              identityProviders: {
                cognito: cognitoIdentityProviders({ userPoolId: pool.userPoolId, clientId: pool.userPoolClientId, region: lambdaConfig.region, endpoint: pool.endpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } }),
                secrets: secretsManager({ region: lambdaConfig.region, endpoint: lambdaConfig.secretsManagerEndpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } }),
                store: identityProviderStore(repositoryTable, lambdaConfig.retention),
              },
            }
          : {}),
      },
      // The demo collector (or the key given) and the acme-only key (docs/api.md#collectors-and-tenants).
      collectorCredentials: [
        opts.collectorCredential ?? LOCAL_COLLECTOR_CREDENTIAL,
        LOCAL_ACME_COLLECTOR_CREDENTIAL,
      ],
      openApi: openApiDocument(),
      ...(opts.onRequest ? { onRequest: opts.onRequest } : {}),
      ...(opts.throttling ? { throttling: opts.throttling } : {}),
      authorizeInvoke: (method, path) => iam.authorizeInvoke(method, path),
    });
    stops.push(gateway.stop);
    if (mailUrl) {
      const pollerTable = localTable(dynamo.endpoint, table);
      // The stream consumer's and sweep's code, as the notifications-consumer function (its timers inherit the context).
      const poller = runAsFunction('notifications-consumer', () => startOutboxPoller({ config: lambdaConfig, table: pollerTable, users, log }));
      stops.push(async () => {
        await poller.stop();
        pollerTable.doc.destroy();
      });
      log('notification outbox poller running (e-mail to the SES emulator, webhooks)');
      // The daily digest (AWS: an EventBridge rule at 06:00 UTC, infra/notification-digest.ts): once now, then
      // every hour; each run sends yesterday's (UTC) digest to whoever has not had it (docs/notifications.md#daily-digest).
      const digestTable = localTable(dynamo.endpoint, table);
      const digest = runAsFunction('notification-digest', () => startDigestTimer({ config: lambdaConfig, table: digestTable, users, log }));
      stops.push(async () => {
        await digest.stop();
        digestTable.doc.destroy();
      });
    }
    log(`API gateway on ${gateway.url} (${Date.now() - t} ms); OpenAPI at ${gateway.url}/openapi.json`);

    // The SLA job (AWS: an EventBridge schedule rule, infra/sla-watch.ts): once now, then every 5 minutes
    // (docs/notifications.md#sla-job). Idempotent, so a restart or an overlapping run writes nothing twice.
    {
      const slaTable = localTable(dynamo.endpoint, table);
      const runSla = () => void runAsFunction('sla-watch', () => slaWatch(slaTable, new Date(), (e, w) => log(`sla-watch ${w.step}${w.tenantId ? ` (${w.tenantId})` : ''} failed: ${(e as Error).message}`))).catch((e: unknown) => log(`sla-watch failed: ${(e as Error).message}`));
      runSla();
      const slaTimer = setInterval(runSla, SLA_WATCH_INTERVAL_MS);
      slaTimer.unref();
      stops.push(async () => {
        clearInterval(slaTimer);
        slaTable.doc.destroy();
      });
    }

    if ((opts.seed ?? true) && collectorOn) {
      const collector = startCollector({
        apiUrl: gateway.url,
        log: opts.collectorLog ?? log,
        ...(opts.collectorCredential ? { credential: opts.collectorCredential } : {}),
      });
      stops.push(collector.stop);
      log('collector simulator running (heartbeats, outages and alarms through the ingest API)');
    }

    const config: PortalConfig = {
      region: DEMO_REGION,
      userPoolId: pool.userPoolId,
      userPoolClientId: pool.userPoolClientId,
      identityPoolId: '',
      apiUrl: gateway.url,
      stage: LOCAL_STAGE,
      allowSignUp: true,
      brandName: 'Vigía',
      userPoolEndpoint: pool.endpoint,
      ...(pool.hosted && hosted
        ? {
            oauth: {
              domain: pool.hosted.domain,
              scopes: [...hosted.scopes],
              redirectSignIn: hosted.callbackUrls[0]!,
              redirectSignOut: hosted.logoutUrls[0]!,
              socialProviders: [],
              enterprise: true,
            },
          }
        : {}),
    };

    let webUrl: string | null = null;
    if (opts.serveWeb ?? true) {
      const mode = opts.buildPortal ?? 'auto';
      if (mode === 'always' || (mode === 'auto' && portalIsStale())) {
        t = Date.now();
        log('building the portal (vite build; first time ~30 s)…');
        await buildPortal(log);
        log(`portal built (${Date.now() - t} ms)`);
      } else if (!existsSync(path.join(REPO_ROOT, 'web/dist/index.html'))) {
        throw new Error('portal: web/dist is missing — run `npm run build:web` or drop --no-build');
      }
      await webPort?.release();
      const web = await serveWeb(ports.web, host, config, s3.endpoint);
      stops.push(web.stop);
      webUrl = web.url;
      log(`portal on ${web.url}`);
    }

    return {
      urls: { web: webUrl, api: gateway.url, cognito: pool.endpoint, dynamodb: dynamo.endpoint, mail: mailUrl, s3: s3.endpoint },
      attachmentsBucket: LOCAL_ATTACHMENTS_BUCKET,
      config,
      lambdaConfig,
      tableName: table,
      repositoryTable,
      demoUsers,
      federatedUsers,
      ...(identityProvider ? { identityProvider } : {}),
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
