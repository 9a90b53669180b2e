/**
 * The local Cognito user pool: cognito-local 5.3.0 as a child process on an internal port, behind a small
 * compatibility proxy on the public user-pool endpoint, so that the UNMODIFIED Amplify v6 client
 * (`aws-amplify/auth` configured with `Auth.Cognito.userPoolEndpoint`) and `@aws-amplify/ui-react`'s
 * Authenticator work offline, with no AWS account.
 *
 * Gaps of cognito-local that the proxy fills, and why (the full account, with what is still different from
 * Cognito: docs/local-emulation.md#cognito-user-pool):
 *  - USER_SRP_AUTH (HTTP 500 in cognito-local; Amplify's default sign-in flow): the proxy runs the server side of
 *    Cognito's SRP-6a (./srp.ts), verifies PASSWORD_CLAIM_SIGNATURE and TIMESTAMP, then obtains the outcome from
 *    cognito-local's USER_PASSWORD_AUTH with the stored password, so tokens and challenges (NEW_PASSWORD_REQUIRED,
 *    UserNotConfirmedException…) are cognito-local's own.
 *  - Wrong password / unknown user: NotAuthorizedException "Incorrect username or password." (cognito-local says
 *    InvalidPasswordException); user-existence errors are prevented (PreventUserExistenceErrors) in sign-in,
 *    ForgotPassword, ResendConfirmationCode, ConfirmForgotPassword.
 *  - GetTokensFromRefreshToken (Amplify ≥ 6.21's only refresh call) with refresh token rotation, as the deployed
 *    app client (./rotation.ts): each refresh returns a new refresh token, the previous one is accepted for the
 *    grace period only; REFRESH_TOKEN_AUTH is refused (rotation leaves it out); revoked, expired or forged
 *    refresh tokens are refused.
 *  - GlobalSignOut, AdminUserGlobalSignOut and RevokeToken: older refresh tokens are revoked in cognito-local and
 *    older access tokens are refused by GetUser & co. (cognito-local does not even verify access tokens) (./tokens.ts).
 *  - ResendConfirmationCode (absent).
 *  - Remembered devices (absent; ./devices.ts, `<dataDir>/devices.json`): the pool tracks devices with user opt-in like
 *    infra/auth-stack.ts, so each sign-in returns NewDeviceMetadata (DeviceKey `local_<uuid>`) unless it carries the
 *    DEVICE_KEY of one of the user's devices; ConfirmDevice, ListDevices (remembered only), GetDevice,
 *    UpdateDeviceStatus, ForgetDevice. No DEVICE_SRP_AUTH challenge is issued (ChallengeRequiredOnNewDevice false), so
 *    a known DEVICE_KEY is trusted without the device's SRP proof.
 *  - Password policy (ignored by cognito-local) on SignUp, ChangePassword, ConfirmForgotPassword,
 *    NEW_PASSWORD_REQUIRED, AdminSetUserPassword, AdminCreateUser (./policy.ts; the deployed pool's: length ≥ 8).
 *  - ConfirmSignUp sets email_verified=true (else the Authenticator shows "Verify Contact").
 *  - Challenge sessions are checked (cognito-local lets any session string set anyone's NEW_PASSWORD_REQUIRED),
 *    and after NEW_PASSWORD_REQUIRED the tokens come from a fresh sign-in (cognito-local does not store the refresh
 *    token it issues there, so it could never be used).
 *  - E-mail user names are case-insensitive, as in the deployed pool (infra/auth-stack.ts signInCaseSensitive false).
 *  - Administrative (IAM) operations need a SigV4 signature of an operator key (cognito-local checks none); the app
 *    client allows only the deployed client's flows (SRP; refresh through GetTokensFromRefreshToken); SRP step 1 answers unknown users like known
 *    ones; code destinations are masked; a new e-mail waits for verification (keepOriginal).
 *  - User attributes (./attributes.ts): SignUp, AdminCreateUser, UpdateUserAttributes and AdminUpdateUserAttributes
 *    refuse what Cognito refuses (attributes outside the schema, `identities`, `email_verified` from a client…),
 *    from infra/user-pool-attributes.ts, the deployed stack's source; federated users get only mapped attributes.
 *  - The pre token generation event is Cognito's (./pre-token-event.ts): the user's groups, the flow's triggerSource.
 *  - `/.well-known/openid-configuration` (hard-coded to localhost:9229 in cognito-local) and CORS headers
 *    (cognito-local's lack Access-Control-Expose-Headers; the proxy answers preflights itself).
 * Everything else (SignUp storage, groups, Admin* calls, JWKS, token signing) is cognito-local's, forwarded as is.
 *
 * Offline codes: every verification code is {@link FIXED_CODE}; each code "sent" is also appended to
 * `<dataDir>/codes.jsonl` and reported through `log` (see {@link lastCodeFor}).
 * Federated sign-in (optional, `hosted`): the hosted OAuth endpoints of a Cognito domain on their own HTTPS port
 * (./hosted.ts: /oauth2/authorize, /oauth2/idpresponse, /oauth2/token, /logout) and the trigger's tenant of each
 * identity provider. Not built: the hosted sign-in pages themselves, DEVICE_SRP_AUTH.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JSONWebKeySet } from 'jose';
import { createProxy } from './proxy.js';
import { RefreshTokenRotation } from './rotation.js';
import { readAppClient, seedUserPool } from './store.js';
import { LocalIdentityProviders } from './identity-providers.js';
import { RevocationRegistry, TokenVerifier } from './tokens.js';
import { isTriggerInvocation, localTriggers, type LocalTriggers } from './triggers.js';
import { TokenIssueFlows } from './pre-token-event.js';
import { OIDC_ATTRIBUTE_MAPPING } from '../../../infra/user-pool-attributes.js';
import { startHostedEndpoints, type HostedOidcProvider } from './hosted.js';
import type { FederatedTenants } from '../../../lambdas/triggers/federation.js';
import type { RecordAudit } from '../../../lambdas/triggers/pre-token-generation.js';
import { LOCAL_OPERATOR_CREDENTIAL, type CollectorCredential } from '../config.js';

export { lastCodeFor, codesFile } from './store.js';
export { checkPassword, VIGIA_PASSWORD_POLICY } from './policy.js';

/** Stable id of the local user pool (SRP pool name = the part after `_`: `vigia`). */
export const LOCAL_USER_POOL_ID = 'local_vigia';
/** Stable id of the portal's app client (26 lowercase alphanumerics, like a real one; no secret). */
export const LOCAL_USER_POOL_CLIENT_ID = 'vigialocalportalclient0001';
/** Every verification / reset code of the local pool (cognito-local's `CODE`). */
export const FIXED_CODE = '123456';

export interface UserPoolOptions {
  /** Directory for cognito-local's `.cognito/` data, the revocation state and `codes.jsonl`; created if absent. */
  dataDir: string;
  /** Public user-pool endpoint port (the proxy); default 9229; 0 picks a free port. */
  port?: number;
  /** cognito-local's internal port (loopback only); default 9230; 0 picks a free port. */
  internalPort?: number;
  /** Interface the proxy listens on; default `127.0.0.1`. */
  host?: string;
  /** Receives human-readable lines (codes sent, proxy failures, cognito-local's last output if it dies). */
  log?: (line: string) => void;
  /** Access keys allowed to sign the administrative (IAM) operations; default `[LOCAL_OPERATOR_CREDENTIAL]`. */
  operatorCredentials?: readonly CollectorCredential[];
  /** File the temporary passwords of invitations are appended to (not e-mailed offline); none = not written. */
  invitationsFile?: string;
  /** Stores the audit entries of access requests (a sign-in of a user in no group); none when absent. */
  recordAudit?: RecordAudit;
  /**
   * Seconds a rotated-out refresh token stays valid (the app client's RetryGracePeriodSeconds, 0–60); default
   * the deployed client's (10). Tests shorten it to observe the end of the grace period.
   */
  refreshTokenGraceSeconds?: number;
  /**
   * Federated sign-in: the hosted OAuth endpoints on `port` (HTTPS, 0 = a free one) for an app client whose
   * callback and sign-out URLs and scopes are given, trusting `providers`; `tenants` maps each provider to its
   * tenant for the trigger (docs/local-emulation.md#federated-sign-in). Absent: no OAuth endpoints at all.
   */
  hosted?: {
    port: number;
    callbackUrls: readonly string[];
    logoutUrls: readonly string[];
    scopes: readonly string[];
    providers: readonly HostedOidcProvider[];
    tenants: FederatedTenants;
    /**
     * Staff-configured providers' tenants (the table's `IDP#…` items, as the deployed trigger reads them); with it the
     * pool also serves Cognito's provider API (./identity-providers.ts) and its hosted endpoints route to the OIDC
     * providers so created that the app client lists (docs/local-emulation.md#identity-providers-set-by-staff).
     */
    tenantOfProvider?: (providerName: string) => Promise<string | null>;
  };
}

export interface RunningUserPool {
  /** Base URL clients use as `userPoolEndpoint` / SDK `endpoint`, e.g. `http://127.0.0.1:9229`. */
  endpoint: string;
  userPoolId: string;
  userPoolClientId: string;
  /** `iss` of its tokens: `<endpoint>/<userPoolId>`. */
  issuer: string;
  /** `<issuer>/.well-known/jwks.json`. */
  jwksUri: string;
  /** cognito-local's own URL, WITHOUT the compatibility layer (diagnostics only; clients use `endpoint`). */
  internalEndpoint: string;
  /** With `hosted`: the OAuth endpoints' `host:port` (config.json `oauth.domain`) and the IdP redirect URI. */
  hosted?: { domain: string; idpResponseUrl: string };
  /** Stops the proxy and cognito-local; frees both ports. */
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string, what: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      reject(
        new Error(
          err.code === 'EADDRINUSE'
            ? `Port ${port} on ${host} is already in use (${what}); stop the other process or choose another port.`
            : `Cannot listen on ${host}:${port} (${what}): ${err.message}`,
        ),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolvePort((server.address() as AddressInfo).port);
    });
  });
}

/** Checks that `port` is free on 127.0.0.1 (0 → returns a free one). */
async function probePort(port: number, what: string): Promise<number> {
  const probe = createServer();
  const actual = await listen(probe, port, '127.0.0.1', what);
  await new Promise<void>((r) => probe.close(() => r()));
  return actual;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((r) => {
    server.close(() => r());
    server.closeAllConnections();
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timeout = sleep(3000).then(() => 'timeout' as const);
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * Starts cognito-local and the compatibility proxy, after idempotently ensuring the Vigía user pool
 * ({@link LOCAL_USER_POOL_ID}; e-mail as username, auto-verified; the deployed pool's password policy; MFA OPTIONAL
 * with TOTP) and its app client ({@link LOCAL_USER_POOL_CLIENT_ID}; no secret; SRP, refresh token rotation, as deployed).
 * Users and groups persist in `dataDir` across restarts; this function creates none.
 *
 * The pool accepts the AWS SDK v3 (`@aws-sdk/client-cognito-identity-provider`) at `endpoint` with any
 * region. Public operations (sign-in, sign-up, codes, refresh) need no credentials; the administrative ones
 * (`Admin*`, groups, `ListUsers`…) need a SigV4 signature of one of `operatorCredentials`, as the deployed
 * pool needs an operator's IAM credentials (docs/local-emulation.md#administrative-operations).
 * @throws Error naming the port when a port is busy; Error with cognito-local's output if it fails to start
 *         within 20 s.
 */
export async function startUserPool(opts: UserPoolOptions): Promise<RunningUserPool> {
  const dataDir = resolve(opts.dataDir);
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? (() => undefined);
  await mkdir(dataDir, { recursive: true });

  let internalPort = await probePort(opts.internalPort ?? 9230, 'cognito-local, internal user-pool port');
  let handler: ((req: Parameters<ReturnType<typeof createProxy>>[0], res: Parameters<ReturnType<typeof createProxy>>[1]) => void) | null = null;
  // cognito-local's trigger invocations (Lambda Invoke API) run the project's trigger code (./triggers.ts).
  let triggers: LocalTriggers | null = null;
  const server = createServer((req, res) => {
    if (triggers && isTriggerInvocation(req)) triggers.serve(req, res);
    else if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  const port = await listen(server, opts.port ?? 9229, host, 'Cognito compatibility proxy, user-pool endpoint');
  const urlHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const endpoint = `http://${urlHost}:${port}`;
  let upstream = `http://127.0.0.1:${internalPort}`;
  const issuer = `${endpoint}/${LOCAL_USER_POOL_ID}`;

  let child: ChildProcess | null = null;
  let hosted: Awaited<ReturnType<typeof startHostedEndpoints>> | null = null;
  let stopping = false;
  try {
    await seedUserPool({
      dataDir,
      userPoolId: LOCAL_USER_POOL_ID,
      userPoolClientId: LOCAL_USER_POOL_CLIENT_ID,
      issuerDomain: endpoint,
      ...(opts.refreshTokenGraceSeconds !== undefined ? { refreshTokenGraceSeconds: opts.refreshTokenGraceSeconds } : {}),
    });

    const require = createRequire(import.meta.url);
    const bin = join(dirname(require.resolve('cognito-local/package.json')), 'lib/bin/start.js');
    // A port picked here (`internalPort: 0`) is free when probed, not when cognito-local binds it a moment later:
    // another process may take it in between (parallel test files). Then a new port is picked, up to 3 times.
    for (let attempt = 1; ; attempt++) {
      const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(internalPort), HOST: '127.0.0.1', CODE: FIXED_CODE, NODE_NO_WARNINGS: '1' };
      delete env.DEBUG;
      delete env.COGNITO_LOCAL_DEVMODE;
      const started = spawn(process.execPath, [bin], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      const output: string[] = [];
      const keep = (chunk: Buffer): void => {
        output.push(...chunk.toString('utf8').replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter(Boolean)); // eslint-disable-line no-control-regex
        output.splice(0, Math.max(0, output.length - 40));
      };
      started.stdout?.on('data', keep);
      started.stderr?.on('data', keep);
      let exited = false;
      started.once('exit', (code, signal) => {
        exited = true;
        if (!stopping) log(`cognito-local exited (${signal ?? code}):\n${output.slice(-15).join('\n')}`);
      });

      const deadline = Date.now() + 20_000;
      let taken = false;
      for (;;) {
        if (exited) {
          taken = opts.internalPort === 0 && attempt < 3 && output.some((l) => l.includes('EADDRINUSE'));
          if (taken) break;
          throw new Error(`cognito-local failed to start on port ${internalPort}:\n${output.join('\n')}`);
        }
        const ok = await fetch(`${upstream}/health`).then((r) => r.ok, () => false);
        if (ok) break;
        if (Date.now() > deadline) throw new Error(`cognito-local did not answer on port ${internalPort} within 20 s:\n${output.join('\n')}`);
        await sleep(50);
      }
      if (!taken) break;
      log(`cognito-local: port ${internalPort} was taken before it bound it; trying another`);
      internalPort = await probePort(0, 'cognito-local, internal user-pool port');
      upstream = `http://127.0.0.1:${internalPort}`;
    }

    // Cognito's provider API, seeded with the providers of `hosted` (as a stage's providers file creates them).
    const identityProviders = opts.hosted
      ? await LocalIdentityProviders.open(
          dataDir,
          opts.hosted.providers.map((p) => ({
            ProviderName: p.name,
            ProviderType: 'OIDC',
            ProviderDetails: { client_id: p.clientId, client_secret: p.clientSecret, oidc_issuer: p.issuer, authorize_scopes: 'openid email profile', attributes_request_method: 'GET' },
            AttributeMapping: { ...OIDC_ATTRIBUTE_MAPPING },
            IdpIdentifiers: [...p.identifiers],
          })),
        )
      : undefined;
    // Sign-in flows announced by the proxy and the hosted endpoints to the trigger (triggerSource, client metadata).
    const flows = new TokenIssueFlows();
    triggers = localTriggers({
      dataDir,
      flows,
      endpoint,
      region: 'us-east-1',
      operator: (opts.operatorCredentials ?? [LOCAL_OPERATOR_CREDENTIAL])[0]!,
      log,
      recordAudit: opts.recordAudit,
      federatedTenants: opts.hosted?.tenants,
      tenantOfProvider: opts.hosted?.tenantOfProvider,
    });
    const jwks = (await (await fetch(`${upstream}/${LOCAL_USER_POOL_ID}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
    const registry = await RevocationRegistry.load(join(dataDir, 'revocations.json'));
    handler = createProxy({
      dataDir,
      userPoolId: LOCAL_USER_POOL_ID,
      userPoolClientId: LOCAL_USER_POOL_CLIENT_ID,
      upstream,
      endpoint,
      verifier: new TokenVerifier(jwks, issuer, registry),
      registry,
      rotation: await RefreshTokenRotation.load(join(dataDir, 'refresh-rotation.json')),
      log,
      operatorCredentials: opts.operatorCredentials ?? [LOCAL_OPERATOR_CREDENTIAL],
      flows,
      ...(opts.invitationsFile ? { invitationsFile: opts.invitationsFile } : {}),
      ...(identityProviders ? { identityProviders } : {}),
    });
    if (opts.hosted) {
      const staticNames = new Set(opts.hosted.providers.map((p) => p.name));
      hosted = await startHostedEndpoints({
        ...opts.hosted,
        moreProviders: async () => {
          const listed = (await readAppClient(dataDir, LOCAL_USER_POOL_CLIENT_ID))?.SupportedIdentityProviders ?? [];
          return Object.values((await identityProviders?.all()) ?? {})
            .filter((p) => p.ProviderType === 'OIDC' && !staticNames.has(p.ProviderName) && listed.includes(p.ProviderName))
            .map((p) => ({ name: p.ProviderName, identifiers: p.IdpIdentifiers, issuer: p.ProviderDetails.oidc_issuer!, clientId: p.ProviderDetails.client_id!, clientSecret: p.ProviderDetails.client_secret ?? '', attributeMapping: p.AttributeMapping }));
        },
        dataDir,
        userPoolId: LOCAL_USER_POOL_ID,
        userPoolClientId: LOCAL_USER_POOL_CLIENT_ID,
        upstream,
        registry,
        flows,
        host: urlHost,
        log,
      });
    }
  } catch (err) {
    stopping = true;
    await hosted?.stop();
    await closeServer(server);
    if (child) await stopChild(child);
    throw err;
  }

  const running = child;
  const onExit = (): void => {
    running.kill('SIGKILL');
  };
  process.once('exit', onExit);
  let stopped: Promise<void> | null = null;
  return {
    endpoint,
    userPoolId: LOCAL_USER_POOL_ID,
    userPoolClientId: LOCAL_USER_POOL_CLIENT_ID,
    issuer,
    jwksUri: `${issuer}/.well-known/jwks.json`,
    internalEndpoint: upstream,
    ...(hosted ? { hosted: { domain: hosted.domain, idpResponseUrl: hosted.idpResponseUrl } } : {}),
    stop() {
      stopped ??= (async () => {
        stopping = true;
        process.off('exit', onExit);
        await hosted?.stop();
        await closeServer(server);
        await stopChild(running);
        triggers?.close();
      })();
      return stopped;
    },
  };
}
