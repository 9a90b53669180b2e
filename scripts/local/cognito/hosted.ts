/**
 * The local user pool's hosted OAuth 2.0 endpoints — what a Cognito domain (`<prefix>.auth.<region>.amazoncognito.com`)
 * serves for federated sign-in (docs/local-emulation.md#federated-sign-in; the deployed side:
 * docs/platform.md#federated-sign-in). cognito-local has none of them.
 *
 * HTTPS only, as Amplify always calls `https://<domain>/…`: a self-signed certificate for 127.0.0.1/localhost is
 * made once and kept in `<dataDir>/hosted-tls.json` (a browser asks once to trust it; the browser suite ignores
 * certificate errors for this origin).
 *
 *  - `GET /oauth2/authorize` (Cognito "Authorize endpoint"): the app client, its registered `redirect_uri`
 *    (anything else is an error page, never a redirect), `response_type=code`, a PKCE `code_challenge` with
 *    `code_challenge_method=S256` (required here), scopes the client allows; `identity_provider=<name>` or
 *    `idp_identifier=<e-mail domain>` (identifier-based routing) picks the provider. The browser goes on to the
 *    provider's authorization endpoint with the pool's OWN `state`, `nonce` and PKCE pair (openid-client),
 *    remembered for 10 minutes. Without a provider, a live hosted session (cookie) of the same client signs in
 *    again at once, as Cognito's session cookie does; otherwise `error=invalid_request` (there is no hosted UI).
 *  - `GET /oauth2/idpresponse` (the "IdP response" redirect URI registered at the provider): the `state` must be one
 *    this pool issued and not used yet (single use; a tampered or replayed `state` is an error page and nothing is
 *    exchanged); the provider's code is exchanged with the PKCE verifier, and the ID token checked (signature,
 *    issuer, audience, nonce) by openid-client. The user carries the provider's e-mail and Cognito's `identities`
 *    attribute (created on the first sign-in; see `ensureUser`); its tokens come from cognito-local, so the pre token generation trigger
 *    runs as in AWS and puts the user in the provider's tenant. The browser returns to the client's
 *    `redirect_uri` with a new authorization code and the client's own `state`, and gets the hosted session cookie.
 *  - `POST /oauth2/token` (Cognito "Token endpoint"), `grant_type=authorization_code`: the code is single use
 *    (deleted at its first presentation, whatever the outcome), lives 5 minutes, and needs the same `client_id`
 *    and `redirect_uri` and the `code_verifier` whose S256 hash is the challenge; errors are RFC 6749 §5.2
 *    (`invalid_grant`, `invalid_client`, `unsupported_grant_type`, `invalid_request`). CORS for the portal.
 *  - `GET /logout` (Cognito "Logout endpoint"): `client_id` and a registered `logout_uri`; ends the hosted session
 *    (server side and cookie) and redirects there.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { generate } from 'selfsigned';
import { attributeValue, readPool } from './store.js';
import { decodeClaims, type RevocationRegistry } from './tokens.js';
import type { TokenIssueFlows } from './pre-token-event.js';
import { OIDC_ATTRIBUTE_MAPPING } from '../../../infra/user-pool-attributes.js';

/** One customer identity provider (OIDC) the local pool trusts (its tenant is the trigger's business: `UserPoolOptions.hosted.tenants`). */
export interface HostedOidcProvider {
  /** Cognito provider name, e.g. `AcmeIdP`; users are named `<name>_<sub>`. */
  readonly name: string;
  /** E-mail domains routed to it (`idp_identifier`), lower-case. */
  readonly identifiers: readonly string[];
  /** The provider's issuer (discovery document at `<issuer>/.well-known/openid-configuration`). */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /**
   * The provider's attribute mapping (user pool attribute → the provider's claim); default OIDC_ATTRIBUTE_MAPPING
   * (infra/user-pool-attributes.ts, the deployed providers' mapping).
   */
  readonly attributeMapping?: Readonly<Record<string, string>>;
}

export interface HostedOptions {
  /** Where the TLS certificate is kept. */
  readonly dataDir: string;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  /** cognito-local's base URL (users and tokens). */
  readonly upstream: string;
  readonly registry: RevocationRegistry;
  /** The app client's callback and sign-out URLs (exact match), e.g. `http://127.0.0.1:5173/`. */
  readonly callbackUrls: readonly string[];
  readonly logoutUrls: readonly string[];
  /** Scopes the app client allows. */
  readonly scopes: readonly string[];
  readonly providers: readonly HostedOidcProvider[];
  /**
   * Further OIDC providers, asked at each authorization: those created with the pool's provider API (staff-configured,
   * ./identity-providers.ts) that the app client lists in `SupportedIdentityProviders`, as Cognito routes only to
   * providers of the client.
   */
  readonly moreProviders?: () => Promise<HostedOidcProvider[]>;
  /** Port (0 = a free one) and interface of the HTTPS server. */
  readonly port: number;
  readonly host: string;
  readonly log: (line: string) => void;
  /** Where the hosted sign-ins announce `TokenGeneration_HostedAuth` to the trigger (./pre-token-event.ts). */
  readonly flows?: TokenIssueFlows;
}

export interface RunningHosted {
  /** `host:port`, what `config.json`'s `oauth.domain` names (Amplify prefixes `https://`). */
  readonly domain: string;
  /** The redirect URI to register at the identity providers: `https://<domain>/oauth2/idpresponse`. */
  readonly idpResponseUrl: string;
  stop(): Promise<void>;
}

/** Authorization codes live 5 minutes (Amazon Cognito developer guide, "Token endpoint"). */
const CODE_TTL_MS = 5 * 60_000;
/** A redirect to the provider must come back within 10 minutes. */
const PENDING_TTL_MS = 10 * 60_000;
/** The hosted session (Cognito keeps it one hour). */
const SESSION_TTL_MS = 60 * 60_000;
const SESSION_COOKIE = 'vigia-local-pool-session';

type Json = Record<string, unknown>;
interface Tokens { IdToken: string; AccessToken: string; RefreshToken: string; ExpiresIn: number }
interface ClientRequest { clientState: string | null; redirectUri: string; codeChallenge: string; scopes: string[] }

/** `base64url(sha256(verifier))`, RFC 7636 §4.6. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** A self-signed certificate for 127.0.0.1, ::1 and localhost, made once per state folder. */
async function tlsCredentials(dataDir: string): Promise<{ key: string; cert: string }> {
  const file = join(dataDir, 'hosted-tls.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as { key: string; cert: string };
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 365 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  });
  const creds = { key: pems.private, cert: pems.cert };
  await writeFile(file, JSON.stringify(creds), { mode: 0o600 });
  return creds;
}

/** Starts the HTTPS server of the hosted endpoints. @throws Error when the port is busy */
export async function startHostedEndpoints(opts: HostedOptions): Promise<RunningHosted> {
  const creds = await tlsCredentials(opts.dataDir);
  const server = https.createServer(creds);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new Error(`Port ${opts.port} on ${opts.host} is already in use (the user pool's OAuth endpoints); stop the other process or choose another port.`) : e),
    );
    server.listen(opts.port, opts.host, () => resolve());
  });
  const domain = `${opts.host}:${(server.address() as AddressInfo).port}`;
  const poolId = opts.userPoolId;
  const base = `https://${domain}`;
  const idpResponseUrl = `${base}/oauth2/idpresponse`;

  const pending = new Map<string, ClientRequest & { provider: HostedOidcProvider; verifier: string; nonce: string; expires: number }>();
  const codes = new Map<string, ClientRequest & { tokens: Tokens; expires: number }>();
  const sessions = new Map<string, { username: string; expires: number }>();
  const discovered = new Map<string, Promise<oidc.Configuration>>();
  const providerConfig = (p: HostedOidcProvider): Promise<oidc.Configuration> => {
    // By every setting: a provider changed by staff is discovered again.
    const key = JSON.stringify([p.name, p.issuer, p.clientId, p.clientSecret]);
    let c = discovered.get(key);
    if (!c) {
      c = oidc.discovery(new URL(p.issuer), p.clientId, undefined, oidc.ClientSecretBasic(p.clientSecret), { execute: [oidc.allowInsecureRequests] });
      c.catch(() => discovered.delete(key));
      discovered.set(key, c);
    }
    return c;
  };
  const prune = (): void => {
    const now = Date.now();
    for (const m of [pending, codes, sessions] as Array<Map<string, { expires: number }>>) for (const [k, v] of m) if (v.expires < now) m.delete(k);
  };

  async function upstream(target: string, body: Json): Promise<Json> {
    const r = await fetch(`${opts.upstream}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
      body: JSON.stringify(body),
    });
    const json = (await r.json().catch(() => ({}))) as Json;
    if (!r.ok) throw Object.assign(new Error(`${target}: ${String(json.message ?? r.status)}`), { type: json.__type });
    return json;
  }

  /** cognito-local's tokens for `username` (a fresh random password each time: federated users have none of their own). */
  async function tokensFor(username: string): Promise<Tokens> {
    const password = `Fed-${randomBytes(18).toString('base64url')}9a!`;
    await upstream('AdminSetUserPassword', { UserPoolId: poolId, Username: username, Password: password, Permanent: true });
    const signIn = async (): Promise<Tokens> => {
      const initiate = (): Promise<Json> =>
        upstream('InitiateAuth', { ClientId: opts.userPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD: password } });
      // Cognito reports a sign-in through its hosted endpoints to the trigger as TokenGeneration_HostedAuth.
      const out = opts.flows ? await opts.flows.run(username, { triggerSource: 'TokenGeneration_HostedAuth' }, initiate) : await initiate();
      const auth = out.AuthenticationResult as Tokens | undefined;
      if (!auth) throw new Error(`federated user ${username}: no tokens (challenge ${String(out.ChallengeName)})`);
      opts.registry.recordIssued(auth);
      return auth;
    };
    let tokens = await signIn();
    // cognito-local reads the groups before running the trigger and ignores its groupOverrideDetails: on the first
    // sign-in of a federated user the trigger has just added the tenant group, so the tokens are issued once more.
    const groups = ((await upstream('AdminListGroupsForUser', { UserPoolId: poolId, Username: username })).Groups as Array<{ GroupName: string }> | undefined ?? []).map((g) => g.GroupName).sort();
    const inToken = [...((decodeClaims(tokens.IdToken)?.['cognito:groups'] as string[] | undefined) ?? [])].sort();
    if (groups.join() !== inToken.join()) tokens = await signIn();
    return tokens;
  }

  /**
   * The pool's user of `provider`'s subject `sub`, created at its first sign-in with exactly the attributes the
   * provider's attribute mapping gives ({@link mappedAttributes}: the e-mail, and no `email_verified` unless it is
   * mapped) and Cognito's `identities` attribute (`[{ providerName, providerType, userId, … }]`), which is how the
   * trigger recognises the provider; mapped attributes that changed are updated at each sign-in, as Cognito does
   * (developer guide, "Specifying identity provider attribute mappings for your user pool"). cognito-local names
   * every user of this e-mail-as-username pool by a UUID, where Cognito names a federated user `<provider>_<sub>`.
   * @returns the user name
   */
  async function ensureUser(provider: HostedOidcProvider, sub: string, claims: Record<string, unknown>): Promise<string> {
    const attributes = mappedAttributes(provider.attributeMapping ?? OIDC_ATTRIBUTE_MAPPING, claims);
    const pool = await readPool(opts.dataDir, poolId);
    const existing = Object.values(pool?.Users ?? {}).find((u) => {
      try {
        const ids = JSON.parse(attributeValue(u, 'identities') ?? '[]') as Array<{ providerName?: string; userId?: string }>;
        return ids.some((i) => i.providerName === provider.name && i.userId === sub);
      } catch {
        return false;
      }
    });
    if (existing) {
      // Only what changed: cognito-local marks a rewritten e-mail unverified even when its value is the same.
      const changed = attributes.filter((a) => attributeValue(existing, a.Name) !== a.Value);
      if (changed.length > 0) await upstream('AdminUpdateUserAttributes', { UserPoolId: poolId, Username: existing.Username, UserAttributes: changed });
      return existing.Username;
    }
    const identities = JSON.stringify([{ userId: sub, providerName: provider.name, providerType: 'OIDC', issuer: null, primary: 'true', dateCreated: String(Date.now()) }]);
    const created = await upstream('AdminCreateUser', {
      UserPoolId: poolId,
      // cognito-local wants an e-mail-shaped name in this pool and stores a UUID instead; the real e-mail is the attribute.
      Username: `${provider.name}_${sub}@federated.invalid`,
      UserAttributes: [...attributes, { Name: 'identities', Value: identities }],
      MessageAction: 'SUPPRESS',
      TemporaryPassword: `Tmp-${randomBytes(12).toString('base64url')}1a!`,
    });
    const username = String((created.User as Json | undefined)?.Username);
    opts.log(`federated user ${provider.name}/${sub} (${String(claims.email)}) created at its first sign-in as ${username}`);
    return username;
  }

  function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void {
    res.writeHead(302, { location, 'cache-control': 'no-store', ...headers }).end();
  }
  function errorPage(res: ServerResponse, status: number, message: string): void {
    opts.log(`user pool OAuth endpoints: ${message}`);
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(`<!doctype html><html lang="en"><title>Error</title><h1>An error was encountered with the requested page.</h1><p>${message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p></html>`);
  }
  function back(res: ServerResponse, req: ClientRequest, params: Record<string, string>, headers: Record<string, string | string[]> = {}): void {
    const url = new URL(req.redirectUri);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    if (req.clientState !== null) url.searchParams.set('state', req.clientState);
    redirect(res, url.toString(), headers);
  }
  const cookieOf = (req: IncomingMessage): string | undefined =>
    (req.headers.cookie ?? '').split(';').map((c) => c.trim().split('=')).find(([k]) => k === SESSION_COOKIE)?.[1];
  /** Issues an authorization code for `tokens` and sends the browser back to the client with it. */
  function issueCode(res: ServerResponse, request: ClientRequest, tokens: Tokens, username: string): void {
    const code = randomUUID();
    codes.set(code, { ...request, tokens, expires: Date.now() + CODE_TTL_MS });
    const sid = randomBytes(24).toString('base64url');
    sessions.set(sid, { username, expires: Date.now() + SESSION_TTL_MS });
    back(res, request, { code }, { 'set-cookie': `${SESSION_COOKIE}=${sid}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}` });
  }

  async function authorize(req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> {
    if (q.get('client_id') !== opts.userPoolClientId) return errorPage(res, 400, 'invalid client_id');
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!opts.callbackUrls.includes(redirectUri)) return errorPage(res, 400, 'redirect_mismatch: redirect_uri is not a callback URL of the app client');
    const scopes = (q.get('scope') ?? opts.scopes.join(' ')).split(/\s+/).filter(Boolean);
    const request: ClientRequest = { clientState: q.get('state'), redirectUri, codeChallenge: q.get('code_challenge') ?? '', scopes };
    if (q.get('response_type') !== 'code') return back(res, request, { error: 'unsupported_response_type' });
    if (!request.codeChallenge || q.get('code_challenge_method') !== 'S256') return back(res, request, { error: 'invalid_request', error_description: 'PKCE with code_challenge_method=S256 is required' });
    if (scopes.some((s) => !opts.scopes.includes(s))) return back(res, request, { error: 'invalid_scope' });
    const identifier = q.get('idp_identifier')?.toLowerCase();
    const name = q.get('identity_provider');
    const providers = [...opts.providers, ...((await opts.moreProviders?.()) ?? [])];
    const provider = name ? providers.find((p) => p.name === name) : identifier ? providers.find((p) => p.identifiers.includes(identifier)) : undefined;
    if (!provider) {
      const session = sessions.get(cookieOf(req) ?? '');
      if (!name && !identifier && session && session.expires > Date.now()) return issueCode(res, request, await tokensFor(session.username), session.username);
      return back(res, request, { error: 'invalid_request', error_description: name || identifier ? 'no identity provider for this request' : 'no hosted sign-in page offline: name an identity provider' });
    }
    const config = await providerConfig(provider);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    pending.set(state, { ...request, provider, verifier, nonce, expires: Date.now() + PENDING_TTL_MS });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: idpResponseUrl,
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...(q.get('login_hint') ? { login_hint: q.get('login_hint')! } : {}),
    });
    redirect(res, url.toString());
  }

  async function idpResponse(res: ServerResponse, url: URL): Promise<void> {
    const state = url.searchParams.get('state') ?? '';
    const flow = pending.get(state);
    // Single use: a replayed or tampered state finds nothing.
    pending.delete(state);
    if (!flow || flow.expires < Date.now()) return errorPage(res, 400, 'invalid_state: the state of the identity provider response is unknown, used or expired');
    if (url.searchParams.get('error')) return back(res, flow, { error: 'access_denied', error_description: url.searchParams.get('error_description') ?? url.searchParams.get('error')! });
    let claims: oidc.IDToken | undefined;
    try {
      const grant = await oidc.authorizationCodeGrant(await providerConfig(flow.provider), url, { pkceCodeVerifier: flow.verifier, expectedState: state, expectedNonce: flow.nonce, idTokenExpected: true });
      claims = grant.claims();
    } catch (e) {
      opts.log(`identity provider ${flow.provider.name}: code exchange refused: ${(e as Error).message}`);
      return back(res, flow, { error: 'invalid_request', error_description: 'the identity provider response was refused' });
    }
    const email = typeof claims?.email === 'string' ? claims.email.toLowerCase() : '';
    if (!claims || !email) return back(res, flow, { error: 'invalid_request', error_description: 'the identity provider sent no e-mail' });
    const username = await ensureUser(flow.provider, claims.sub, { ...claims, email });
    issueCode(res, flow, await tokensFor(username), username);
  }

  function token(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): void {
    const origin = req.headers.origin;
    const cors: Record<string, string> = origin && opts.callbackUrls.some((u) => new URL(u).origin === origin) ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {};
    const answer = (status: number, body: Json): void => {
      res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', 'cache-control': 'no-store', pragma: 'no-cache', ...cors }).end(JSON.stringify(body));
    };
    if (form.get('grant_type') !== 'authorization_code') return answer(400, { error: 'unsupported_grant_type' });
    const code = form.get('code') ?? '';
    const entry = codes.get(code);
    codes.delete(code);
    if (form.get('client_id') !== opts.userPoolClientId) return answer(400, { error: 'invalid_client' });
    if (!entry || entry.expires < Date.now()) return answer(400, { error: 'invalid_grant' });
    if (form.get('redirect_uri') !== entry.redirectUri) return answer(400, { error: 'invalid_grant' });
    const verifier = form.get('code_verifier') ?? '';
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || s256(verifier) !== entry.codeChallenge) return answer(400, { error: 'invalid_grant' });
    answer(200, { id_token: entry.tokens.IdToken, access_token: entry.tokens.AccessToken, refresh_token: entry.tokens.RefreshToken, expires_in: entry.tokens.ExpiresIn ?? 3600, token_type: 'Bearer' });
  }

  function logout(req: IncomingMessage, res: ServerResponse, q: URLSearchParams): void {
    if (q.get('client_id') !== opts.userPoolClientId) return errorPage(res, 400, 'invalid client_id');
    const target = q.get('logout_uri') ?? '';
    if (!opts.logoutUrls.includes(target)) return errorPage(res, 400, 'logout_uri is not a sign-out URL of the app client');
    sessions.delete(cookieOf(req) ?? '');
    redirect(res, target, { 'set-cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0` });
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      prune();
      const url = new URL(req.url ?? '/', base);
      const run = async (): Promise<void> => {
        if (req.method === 'OPTIONS' && url.pathname === '/oauth2/token') {
          const origin = req.headers.origin ?? '';
          const allowed = opts.callbackUrls.some((u) => new URL(u).origin === origin);
          res.writeHead(204, allowed ? { 'access-control-allow-origin': origin, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? 'content-type'), vary: 'Origin' } : {}).end();
        } else if (req.method === 'GET' && url.pathname === '/oauth2/authorize') await authorize(req, res, url.searchParams);
        else if (req.method === 'GET' && url.pathname === '/oauth2/idpresponse') await idpResponse(res, url);
        else if (req.method === 'POST' && url.pathname === '/oauth2/token') token(req, res, new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        else if (req.method === 'GET' && url.pathname === '/logout') logout(req, res, url.searchParams);
        else if (url.pathname === '/favicon.ico') res.writeHead(204).end();
        else errorPage(res, 404, 'not found');
      };
      run().catch((e: unknown) => {
        opts.log(`user pool OAuth endpoints: ${(e as Error).stack ?? String(e)}`);
        if (!res.headersSent) errorPage(res, 500, 'internal error');
      });
    });
  });

  return {
    domain,
    idpResponseUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The user attributes an identity provider's claims give through `mapping` (user pool attribute → claim), as Cognito
 * applies an attribute mapping (developer guide, "Specifying identity provider attribute mappings for your user
 * pool"): only mapped attributes, each from its claim when the claim is present (booleans and numbers as strings);
 * nothing else — no `email_verified` unless the mapping names it.
 */
export function mappedAttributes(mapping: Readonly<Record<string, string>>, claims: Record<string, unknown>): { Name: string; Value: string }[] {
  const out: { Name: string; Value: string }[] = [];
  for (const [attribute, claim] of Object.entries(mapping)) {
    const value = claims[claim];
    if (typeof value === 'string') out.push({ Name: attribute, Value: value });
    else if (typeof value === 'boolean' || typeof value === 'number') out.push({ Name: attribute, Value: String(value) });
  }
  return out;
}
